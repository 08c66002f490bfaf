-- PostgreSQL twin of ../007_ratings.sql: ratings, their changes per finished game, and undo by
-- consent. REAL becomes DOUBLE PRECISION (SQLite's REAL is an 8-byte float); Discord ids BIGINT.
CREATE TABLE ratings (
    guild_id   BIGINT           NOT NULL,
    game       TEXT             NOT NULL,
    player     TEXT             NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    games      INTEGER          NOT NULL DEFAULT 0,
    updated_at TEXT             NOT NULL,
    PRIMARY KEY (guild_id, game, player)
);
CREATE TABLE rating_changes (
    game_id      BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player       TEXT             NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, player)
);
CREATE TABLE undo_requests (
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    n          INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    user_id    BIGINT  NOT NULL,
    needed     TEXT    NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('open', 'declined', 'done')),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, version)
);
CREATE TABLE undo_answers (
    game_id BIGINT  NOT NULL,
    version INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    agree   INTEGER NOT NULL,
    at      TEXT    NOT NULL,
    PRIMARY KEY (game_id, version, seat),
    FOREIGN KEY (game_id, version) REFERENCES undo_requests (game_id, version) ON DELETE CASCADE
);
