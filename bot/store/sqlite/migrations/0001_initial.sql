-- Version 1: tables (lobby and running games) and finished results.
--
-- Conventions:
--   * datetimes are ISO-8601 strings in UTC with microseconds
--     (YYYY-MM-DDTHH:MM:SS.ffffff+00:00), so they sort as text;
--   * in key columns a guild_id of 0 means "no guild" (Discord never issues
--     snowflake 0), so UNIQUE and PRIMARY KEY constraints hold for DMs too;
--   * JSON documents are stored as TEXT and checked with json_valid.

-- One row per table (one lobby-then-game in a channel or thread). `doc` is the
-- whole StoredTable as JSON and is the source of truth; the other columns are
-- copies of its fields for querying.
CREATE TABLE tables (
    id          TEXT    PRIMARY KEY,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,
    host_id     INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    status      TEXT    NOT NULL
                CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    doc         TEXT    NOT NULL CHECK (json_valid(doc)),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);

CREATE INDEX tables_status ON tables (status);

-- One row per finished game, written exactly once (UNIQUE table_id). No
-- foreign key to `tables`: results outlive pruned tables.
CREATE TABLE results (
    id           INTEGER PRIMARY KEY,
    table_id     TEXT    NOT NULL UNIQUE,
    guild_id     INTEGER NOT NULL DEFAULT 0,
    game         TEXT    NOT NULL,
    finished_at  TEXT    NOT NULL,
    record       TEXT    NOT NULL CHECK (json_valid(record))
);

-- The seats of a finished game. user_id is NULL for a computer player.
CREATE TABLE result_players (
    result_id  INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    user_id    INTEGER,
    name       TEXT    NOT NULL,
    score      INTEGER NOT NULL,
    place      INTEGER NOT NULL CHECK (place >= 1),
    winner     INTEGER NOT NULL CHECK (winner IN (0, 1)),
    PRIMARY KEY (result_id, seat)
);
