"""The application: settings, start-up, sessions, computer seats and the SQLite store.

``bot.create_bot(settings)`` builds the bot without starting it (for tests and
embedding); ``python -m bot`` runs it.
"""

from bot.app import FivefoldBot, create_bot
from bot.settings import Settings

__all__ = ["FivefoldBot", "Settings", "create_bot"]
