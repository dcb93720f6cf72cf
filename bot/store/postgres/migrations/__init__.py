"""PostgreSQL's numbered migrations (bot.schema applies them; SQLite's are one level up)."""
