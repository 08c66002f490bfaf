-- The people around the board (issue 34).
-- Each person's time zone (an IANA name, e.g. Asia/Tokyo) and quiet hours ('23:00-08:00', read in
-- that zone; NULL: none).
ALTER TABLE user_settings ADD COLUMN time_zone TEXT;
ALTER TABLE user_settings ADD COLUMN quiet_hours TEXT;
-- Notices held through a person's quiet hours: one row per person, game and kind (turn, reminder,
-- request, invite). At release_at one process takes (deletes) a person's due rows and sends them
-- as one message, saying only what is still true then.
CREATE TABLE held_notices (
    user_id    INTEGER NOT NULL,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('turn', 'reminder', 'request', 'invite')),
    held_at    TEXT    NOT NULL,
    release_at TEXT    NOT NULL,
    PRIMARY KEY (user_id, game_id, kind)
);
CREATE INDEX held_notices_due ON held_notices (release_at, user_id);
