"""The application: settings, start-up, sessions, computer seats and the SQLite store."""
