-- Work that several bot processes could each start (a reminder, reposting a board that never
-- reached its channel) is claimed in the database first, so exactly one process does it.
ALTER TABLE games ADD COLUMN repost_claimed_until TEXT;
