-- Version 9: seasons. Each calendar month (UTC) is a season of its own board: every finished
-- game counts (and, rated, rates) its people in the season of the month it ended in, with
-- the same maths as the all-time ratings, which a season never resets. The end of a season
-- is only the start of the next month's rows; past seasons stay, so /stats and
-- /leaderboard period:last season show how each ended.
CREATE TABLE season_ratings (
    guild_id  INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    season    TEXT    NOT NULL CHECK (length(season) = 7),  -- YYYY-MM, UTC
    user_id   INTEGER NOT NULL,
    mu        REAL,
    sigma     REAL,
    games     INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins      INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (guild_id, game, season, user_id),
    CHECK ((mu IS NULL) = (sigma IS NULL))
) WITHOUT ROWID;

-- A season's board in its order (the ordinal mu - 3 sigma, then wins, games, user id).
CREATE INDEX season_ratings_board
ON season_ratings (guild_id, game, season, (mu - 3.0 * sigma) DESC, wins DESC, games DESC,
                   user_id)
WHERE mu IS NOT NULL;

-- A player's seasons (their /stats).
CREATE INDEX season_ratings_player ON season_ratings (guild_id, user_id, season);

-- Games finished before this version count in their month's season; their ratings cannot
-- be replayed in SQL (as in version 2), so those seasons rate from the next game on.
INSERT INTO season_ratings (guild_id, game, season, user_id, games, wins)
SELECT r.guild_id,
       r.game,
       substr(r.finished_at, 1, 7),
       p.user_id,
       COUNT(DISTINCT r.id),
       COUNT(DISTINCT CASE WHEN p.winner THEN r.id END)
FROM result_players AS p
JOIN results AS r ON r.id = p.result_id
WHERE p.user_id IS NOT NULL
GROUP BY r.guild_id, r.game, substr(r.finished_at, 1, 7), p.user_id;
