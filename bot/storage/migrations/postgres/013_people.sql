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
CREATE TABLE proposals (
    id               BIGSERIAL PRIMARY KEY,
    game_id          BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind             TEXT    NOT NULL CHECK (kind IN ('pause', 'extend', 'advance', 'draw', 'substitute')),
    seat             INTEGER NOT NULL,
    user_id          BIGINT  NOT NULL,
    turn             INTEGER NOT NULL,
    hours            DOUBLE PRECISION,
    target_id        BIGINT,
    holder_id        BIGINT,
    needed           TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('open', 'passed', 'declined', 'expired', 'lapsed')),
    created_at       TEXT    NOT NULL,
    expires_at       TEXT    NOT NULL,
    message_id       BIGINT,
    controls_retired INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX proposals_one_open ON proposals (game_id, (kind = 'substitute')) WHERE status = 'open';
CREATE INDEX proposals_due ON proposals (status, expires_at);
CREATE INDEX proposals_by_game ON proposals (game_id, status);
CREATE TABLE proposal_answers (
    proposal_id BIGINT  NOT NULL REFERENCES proposals (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    agree       INTEGER NOT NULL,
    at          TEXT    NOT NULL,
    PRIMARY KEY (proposal_id, seat)
);
CREATE TABLE substitutions (
    game_id   BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    from_user BIGINT  NOT NULL,
    to_user   BIGINT  NOT NULL,
    after_n   INTEGER NOT NULL,
    version   INTEGER NOT NULL,
    at        TEXT    NOT NULL,
    by_user   BIGINT  NOT NULL,
    PRIMARY KEY (game_id, version, seat)
);
