-- Version 8: the daily deal (/daily). One try per person, game and day (UTC), wherever they
-- play it, claimed in the transaction that creates its table; its score once that game
-- ends (in the transaction that records its result), for the daily board of the server it
-- was played from. Kept for good: the boards of past days and the streaks read them.
CREATE TABLE daily_tries (
    day          TEXT    NOT NULL CHECK (length(day) = 10),  -- YYYY-MM-DD, UTC
    game         TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,  -- the server whose board it counts on (0: none)
    table_id     TEXT    NOT NULL,
    started_at   TEXT    NOT NULL,
    finished_at  TEXT,              -- NULL while it is played, and for a game never finished
    score        INTEGER,
    place        INTEGER CHECK (place IS NULL OR place >= 1),  -- at its table, computers too
    PRIMARY KEY (day, game, user_id),
    CHECK ((finished_at IS NULL) = (score IS NULL))
) WITHOUT ROWID;

-- A server's board of a day.
CREATE INDEX daily_tries_board ON daily_tries (guild_id, game, day);

-- A person's days of a game, latest first (their streak).
CREATE INDEX daily_tries_person ON daily_tries (user_id, game, day DESC);
