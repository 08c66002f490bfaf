-- PostgreSQL twin of ../013_people.sql (ids as BIGINT).
ALTER TABLE user_settings ADD COLUMN time_zone TEXT;
ALTER TABLE user_settings ADD COLUMN quiet_hours TEXT;
CREATE TABLE held_notices (
    user_id    BIGINT  NOT NULL,
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('turn', 'reminder', 'request', 'invite')),
    held_at    TEXT    NOT NULL,
    release_at TEXT    NOT NULL,
    PRIMARY KEY (user_id, game_id, kind)
);
CREATE INDEX held_notices_due ON held_notices (release_at, user_id);
