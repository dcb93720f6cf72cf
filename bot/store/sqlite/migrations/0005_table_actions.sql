-- Version 5: a durable action appends one row instead of rewriting the record,
-- a finished game is stored once, and /leaderboard and /stats read indexes.

-- The actions of a table's record, one row each, in order (n = 0, 1, ...).
-- `action` is the action as JSON (a record's actions are strings, so a JSON
-- string). tables.doc keeps the rest of the record (options, seed, deals,
-- meta) with "actions" holding their count; the store rebuilds the record on
-- load.
CREATE TABLE table_actions (
    table_id  TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    n         INTEGER NOT NULL CHECK (n >= 0),
    action    TEXT    NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;

-- Tables still in play (or in a lobby, or cancelled): move their actions out
-- of the document, leaving their count in its place.
INSERT INTO table_actions (table_id, n, action)
SELECT t.id,
       CAST(a.key AS INTEGER),
       CASE WHEN a.type IN ('object', 'array') THEN a.value ELSE json_quote(a.value) END
FROM tables AS t, json_each(t.doc, '$.record.actions') AS a
WHERE json_type(t.doc, '$.record.actions') = 'array'
  AND NOT EXISTS (SELECT 1 FROM results AS r WHERE r.table_id = t.id);

UPDATE tables
SET doc = json_set(doc, '$.record.actions', json_array_length(doc, '$.record.actions'))
WHERE json_type(doc, '$.record.actions') = 'array'
  AND NOT EXISTS (SELECT 1 FROM results AS r WHERE r.table_id = tables.id);

-- A finished game with a result: its record is results.record; the table's
-- copy of it goes (the store reads the record from the result).
UPDATE tables
SET doc = json_set(doc, '$.record', json('null'))
WHERE EXISTS (SELECT 1 FROM results AS r WHERE r.table_id = tables.id);

-- /stats: a player's rows in one server without scanning the server.
CREATE INDEX ratings_player ON ratings (guild_id, user_id);

-- /stats's recent games: each seat of a result carries its game's server and
-- end, so a player's latest games in a server are the first entries of one
-- index instead of a sort of every game they ever played.
ALTER TABLE result_players ADD COLUMN guild_id INTEGER;
ALTER TABLE result_players ADD COLUMN finished_at TEXT;

UPDATE result_players
SET guild_id = (SELECT r.guild_id FROM results AS r WHERE r.id = result_players.result_id),
    finished_at = (SELECT r.finished_at FROM results AS r WHERE r.id = result_players.result_id);

DROP INDEX result_players_user;

CREATE INDEX result_players_recent
ON result_players (user_id, guild_id, finished_at DESC, result_id DESC);

-- /leaderboard: rated players of a game in one server, already in board order
-- (the ordinal mu - 3 sigma, then wins, games, user id). The ordinal is also
-- cut into buckets of 1/20 (2 displayed rating points), CAST(ordinal * 20 AS
-- INTEGER), which never decrease as the ordinal grows: so leading the index
-- with the bucket keeps board order, and a page at any offset starts with a
-- seek to its bucket instead of a walk past every player above it. Queries
-- must spell these expressions exactly so to use the index.
CREATE INDEX ratings_board
ON ratings (guild_id, game, CAST((mu - 3.0 * sigma) * 20 AS INTEGER) DESC,
            (mu - 3.0 * sigma) DESC, wins DESC, games DESC, user_id)
WHERE mu IS NOT NULL;

-- How many rated players each bucket of each board holds, kept by triggers:
-- the board's size is their sum, and the bucket holding the Nth player is
-- found by adding up a few hundred counts instead of counting players.
CREATE TABLE board_buckets (
    guild_id  INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    bucket    INTEGER NOT NULL,
    players   INTEGER NOT NULL CHECK (players >= 0),
    PRIMARY KEY (guild_id, game, bucket)
) WITHOUT ROWID;

INSERT INTO board_buckets (guild_id, game, bucket, players)
SELECT guild_id, game, CAST((mu - 3.0 * sigma) * 20 AS INTEGER), COUNT(*)
FROM ratings WHERE mu IS NOT NULL
GROUP BY guild_id, game, CAST((mu - 3.0 * sigma) * 20 AS INTEGER);

CREATE TRIGGER board_buckets_insert AFTER INSERT ON ratings
WHEN new.mu IS NOT NULL
BEGIN
    INSERT INTO board_buckets (guild_id, game, bucket, players)
    VALUES (new.guild_id, new.game, CAST((new.mu - 3.0 * new.sigma) * 20 AS INTEGER), 1)
    ON CONFLICT (guild_id, game, bucket) DO UPDATE SET players = players + 1;
END;

CREATE TRIGGER board_buckets_update AFTER UPDATE OF mu, sigma ON ratings
BEGIN
    UPDATE board_buckets SET players = players - 1
    WHERE old.mu IS NOT NULL AND guild_id = old.guild_id AND game = old.game
      AND bucket = CAST((old.mu - 3.0 * old.sigma) * 20 AS INTEGER);
    INSERT INTO board_buckets (guild_id, game, bucket, players)
    SELECT new.guild_id, new.game, CAST((new.mu - 3.0 * new.sigma) * 20 AS INTEGER), 1
    WHERE new.mu IS NOT NULL
    ON CONFLICT (guild_id, game, bucket) DO UPDATE SET players = players + 1;
END;

CREATE TRIGGER board_buckets_delete AFTER DELETE ON ratings
WHEN old.mu IS NOT NULL
BEGIN
    UPDATE board_buckets SET players = players - 1
    WHERE guild_id = old.guild_id AND game = old.game
      AND bucket = CAST((old.mu - 3.0 * old.sigma) * 20 AS INTEGER);
END;
