-- Version 4: a server may turn the card pictures off (/settings pictures:off).
--
-- 1: new tables draw the table and the hands as pictures (the default); 0: text only.
ALTER TABLE guild_settings ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1
    CHECK (pictures IN (0, 1));
