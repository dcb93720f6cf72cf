-- Version 2: per-server, per-game player ratings and counters, plus the
-- indexes behind the stats and recent-games lookups.

-- One row per (guild, game, human player). guild_id 0 means "no guild".
-- games/wins count every finished game, including a human alone against
-- computer players. mu/sigma are the OpenSkill (Plackett-Luce) rating and stay
-- NULL until the player's first rated game (two or more humans at the table).
CREATE TABLE ratings (
    guild_id  INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    mu        REAL,
    sigma     REAL,
    games     INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins      INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (guild_id, game, user_id),
    CHECK ((mu IS NULL) = (sigma IS NULL))
) WITHOUT ROWID;

CREATE INDEX result_players_user ON result_players (user_id, result_id);

CREATE INDEX results_guild_finished ON results (guild_id, finished_at);

-- Games finished under version 1 keep counting: rebuild the counters from the
-- results already stored. Their ratings cannot be replayed in SQL, so those
-- players start unrated (mu/sigma NULL) and are rated from their next game.
INSERT INTO ratings (guild_id, game, user_id, games, wins)
SELECT r.guild_id,
       r.game,
       p.user_id,
       COUNT(DISTINCT r.id),
       COUNT(DISTINCT CASE WHEN p.winner THEN r.id END)
FROM result_players AS p
JOIN results AS r ON r.id = p.result_id
WHERE p.user_id IS NOT NULL
GROUP BY r.guild_id, r.game, p.user_id;
