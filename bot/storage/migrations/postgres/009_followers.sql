-- PostgreSQL twin of ../009_followers.sql (ids as BIGINT).
CREATE TABLE followers (
    game_id          BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id          BIGINT  NOT NULL,
    since            TEXT    NOT NULL,
    notified_version INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX followers_user ON followers (user_id);
