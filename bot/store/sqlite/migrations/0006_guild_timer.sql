-- Version 6: a server may choose the turn timer of its new tables (/settings timer:...).
--
-- One of 'off', '30s', '1m', '2m', '5m' (bot.tables.timers.SERVER_CHOICES); NULL means the
-- bot's TURN_TIMEOUT setting. A table keeps the timer it opened with.
ALTER TABLE guild_settings ADD COLUMN timer TEXT
    CHECK (timer IS NULL OR timer IN ('off', '30s', '1m', '2m', '5m'));
