-- Version 7: no lost updates. A table's version is a column, so a save can compare it
-- (compare and set: version n is written only over version n - 1), and at most one table
-- per channel is open, by a partial unique index rather than only a check in memory.

ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0);

UPDATE tables SET version = COALESCE(json_extract(doc, '$.version'), 0);

-- Two open tables in one channel could only come from a crash at the wrong moment; the
-- newest stays open and the others are closed (cancelled, their records kept), or the
-- index could not be built.
UPDATE tables
SET status = 'cancelled', doc = json_set(doc, '$.status', 'cancelled')
WHERE status IN ('lobby', 'playing')
  AND EXISTS (SELECT 1 FROM tables AS newer
              WHERE newer.channel_id = tables.channel_id
                AND newer.status IN ('lobby', 'playing')
                AND (newer.created_at > tables.created_at
                     OR (newer.created_at = tables.created_at AND newer.id > tables.id)));

CREATE UNIQUE INDEX tables_open_channel ON tables (channel_id)
WHERE status IN ('lobby', 'playing');
