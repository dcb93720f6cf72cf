-- Version 3: seasons, as SQLite's migration 9. Each calendar month (UTC) is a season of its
-- own board: every finished game counts (and, rated, rates) its people in the season of the
-- month it ended in, with the same maths as the all-time ratings, which a season never
-- resets. Past seasons stay, so /stats and /leaderboard period:last season show how each
-- ended. One board's seasons are rated under that board's advisory lock, as its ratings.
CREATE TABLE season_ratings (
    guild_id  BIGINT           NOT NULL,
    game      TEXT             NOT NULL,
    season    TEXT             NOT NULL CHECK (length(season) = 7),  -- YYYY-MM, UTC
    user_id   BIGINT           NOT NULL,
    mu        DOUBLE PRECISION,
    sigma     DOUBLE PRECISION,
    games     INTEGER          NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins      INTEGER          NOT NULL DEFAULT 0 CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (guild_id, game, season, user_id),
    CHECK ((mu IS NULL) = (sigma IS NULL))
);

-- A season's board in its order (the ordinal mu - 3 sigma, then wins, games, user id).
CREATE INDEX season_ratings_board
ON season_ratings (guild_id, game, season, ((mu - 3.0 * sigma)) DESC, wins DESC, games DESC,
                   user_id)
WHERE mu IS NOT NULL;

-- A player's seasons (their /stats).
CREATE INDEX season_ratings_player ON season_ratings (guild_id, user_id, season);

-- Games finished before this version count in their month's season; their ratings cannot
-- be replayed in SQL, so those seasons rate from the next game on.
INSERT INTO season_ratings (guild_id, game, season, user_id, games, wins)
SELECT r.guild_id,
       r.game,
       to_char(r.finished_at AT TIME ZONE 'UTC', 'YYYY-MM'),
       p.user_id,
       COUNT(DISTINCT r.id),
       COUNT(DISTINCT r.id) FILTER (WHERE p.winner)
FROM result_players AS p
JOIN results AS r ON r.id = p.result_id
WHERE p.user_id IS NOT NULL
GROUP BY 1, 2, 3, 4;
