-- Version 3: per-server settings, one row per server that changed one.
--
-- timezone is an IANA zone name (e.g. 'Pacific/Auckland') for Fizzbin's day
-- and night; NULL means the bot's TIMEZONE setting. A server without a row
-- uses every default. updated_at follows the datetime convention of version 1.
CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY CHECK (guild_id > 0),
    timezone    TEXT    CHECK (timezone IS NULL OR length(timezone) BETWEEN 1 AND 64),
    updated_at  TEXT    NOT NULL
);
