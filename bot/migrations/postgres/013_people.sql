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
CREATE TABLE ping_choices (
    user_id   BIGINT  NOT NULL,
    game_id   BIGINT  NOT NULL,
    mode      TEXT CHECK (mode IN ('every', 'mine', 'before', 'digest', 'none')),
    via       TEXT CHECK (via IN ('channel', 'dm', 'both')),
    last_wait INTEGER,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX ping_choices_mode ON ping_choices (mode, user_id);
ALTER TABLE user_settings ADD COLUMN digest_on TEXT;
CREATE TABLE notice_posts (
    channel_id BIGINT  NOT NULL,
    message_id BIGINT  NOT NULL,
    game_id    BIGINT  NOT NULL,
    turn       INTEGER NOT NULL,
    retired    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message_id, game_id)
);
CREATE INDEX notice_posts_game ON notice_posts (game_id, retired);
