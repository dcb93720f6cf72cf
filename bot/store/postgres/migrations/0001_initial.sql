-- Version 1 of the PostgreSQL schema: everything SQLite's migrations 1 to 7 built, at once.
--
-- The same layout as SQLite's, so one store's data copies to the other as it is
-- (python -m bot migrate-db): a small head row per table plus one row per action, finished
-- games stored once, ratings kept with a board of buckets for deep leaderboard pages.
-- Conventions: datetimes are timestamptz (UTC); in key columns a guild_id of 0 means
-- "no guild" (Discord never issues snowflake 0); documents are jsonb, actions JSON text.

-- One row per table (one lobby-then-game in a channel or thread). `doc` is the whole
-- StoredTable with its record's actions replaced by their count; the other columns are
-- copies of its fields for querying. `version` is compared on every save (version n is
-- written only over n - 1), so a stale copy never overwrites a newer move.
CREATE TABLE tables (
    id          TEXT        PRIMARY KEY,
    guild_id    BIGINT,
    channel_id  BIGINT      NOT NULL,
    message_id  BIGINT,
    host_id     BIGINT      NOT NULL,
    game        TEXT        NOT NULL,
    status      TEXT        NOT NULL
                CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    version     BIGINT      NOT NULL DEFAULT 0 CHECK (version >= 0),
    doc         JSONB       NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);

-- The tables to resume at start-up, without reading the finished ones.
CREATE INDEX tables_open ON tables (created_at, id) WHERE status IN ('lobby', 'playing');

-- The closed tables by age, for the retention sweep (prune_tables).
CREATE INDEX tables_closed ON tables (updated_at) WHERE status IN ('finished', 'cancelled');

-- At most one open table per channel, whichever process opens it.
CREATE UNIQUE INDEX tables_open_channel ON tables (channel_id)
WHERE status IN ('lobby', 'playing');

-- The actions of a table's record, one row each, in order (n = 0, 1, ...), as JSON text.
CREATE TABLE table_actions (
    table_id  TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    n         INTEGER NOT NULL CHECK (n >= 0),
    action    TEXT    NOT NULL,
    PRIMARY KEY (table_id, n)
);

-- One row per finished game, written exactly once (UNIQUE table_id). No foreign key to
-- `tables`: results outlive pruned tables.
CREATE TABLE results (
    id           BIGSERIAL   PRIMARY KEY,
    table_id     TEXT        NOT NULL UNIQUE,
    guild_id     BIGINT      NOT NULL DEFAULT 0,
    game         TEXT        NOT NULL,
    finished_at  TIMESTAMPTZ NOT NULL,
    record       JSONB       NOT NULL
);

-- The seats of a finished game (user_id NULL for a computer player), each carrying its
-- game's server and end so a player's latest games are the first entries of one index.
CREATE TABLE result_players (
    result_id    BIGINT      NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    seat         INTEGER     NOT NULL CHECK (seat >= 0),
    user_id      BIGINT,
    name         TEXT        NOT NULL,
    score        INTEGER     NOT NULL,
    place        INTEGER     NOT NULL CHECK (place >= 1),
    winner       BOOLEAN     NOT NULL,
    guild_id     BIGINT      NOT NULL,
    finished_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (result_id, seat)
);

CREATE INDEX result_players_recent
ON result_players (user_id, guild_id, finished_at DESC, result_id DESC);

-- One row per (guild, game, human player): games/wins count every finished game; mu/sigma
-- (OpenSkill, Plackett-Luce) stay NULL until the player's first rated game.
CREATE TABLE ratings (
    guild_id  BIGINT           NOT NULL,
    game      TEXT             NOT NULL,
    user_id   BIGINT           NOT NULL,
    mu        DOUBLE PRECISION,
    sigma     DOUBLE PRECISION,
    games     INTEGER          NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins      INTEGER          NOT NULL DEFAULT 0 CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (guild_id, game, user_id),
    CHECK ((mu IS NULL) = (sigma IS NULL))
);

CREATE INDEX ratings_player ON ratings (guild_id, user_id);

-- /leaderboard: rated players of a game in one server in board order (the ordinal
-- mu - 3 sigma, then wins, games, user id), led by the ordinal's bucket of 1/20
-- (2 displayed points), floor(ordinal * 20), which never decreases as the ordinal grows:
-- a page at any offset seeks to its bucket instead of walking past every player above it.
-- Queries must spell these expressions exactly so to use the index.
CREATE INDEX ratings_board
ON ratings (guild_id, game, (floor((mu - 3.0 * sigma) * 20)::integer) DESC,
            ((mu - 3.0 * sigma)) DESC, wins DESC, games DESC, user_id)
WHERE mu IS NOT NULL;

-- How many rated players each bucket of each board holds, kept by a trigger: the board's
-- size is their sum, and the bucket holding the Nth player is found by adding up counts.
CREATE TABLE board_buckets (
    guild_id  BIGINT  NOT NULL,
    game      TEXT    NOT NULL,
    bucket    INTEGER NOT NULL,
    players   INTEGER NOT NULL CHECK (players >= 0),
    PRIMARY KEY (guild_id, game, bucket)
);

CREATE FUNCTION board_buckets_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.mu IS NOT NULL THEN
        UPDATE board_buckets SET players = players - 1
        WHERE guild_id = OLD.guild_id AND game = OLD.game
          AND bucket = floor((OLD.mu - 3.0 * OLD.sigma) * 20)::integer;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.mu IS NOT NULL THEN
        INSERT INTO board_buckets (guild_id, game, bucket, players)
        VALUES (NEW.guild_id, NEW.game, floor((NEW.mu - 3.0 * NEW.sigma) * 20)::integer, 1)
        ON CONFLICT (guild_id, game, bucket)
        DO UPDATE SET players = board_buckets.players + 1;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER ratings_board_buckets
AFTER INSERT OR UPDATE OF mu, sigma OR DELETE ON ratings
FOR EACH ROW EXECUTE FUNCTION board_buckets_keep();

-- Per-server settings, one row per server that changed one. timezone: an IANA zone name
-- (NULL: the bot's TIMEZONE setting); pictures: new tables draw their cards; timer: the
-- turn timer of new tables, one of bot.tables.timers.SERVER_CHOICES (NULL: TURN_TIMEOUT).
CREATE TABLE guild_settings (
    guild_id    BIGINT      PRIMARY KEY CHECK (guild_id > 0),
    timezone    TEXT        CHECK (timezone IS NULL OR length(timezone) BETWEEN 1 AND 64),
    pictures    BOOLEAN     NOT NULL DEFAULT TRUE,
    timer       TEXT        CHECK (timer IS NULL OR timer IN ('off', '30s', '1m', '2m', '5m')),
    updated_at  TIMESTAMPTZ NOT NULL
);
