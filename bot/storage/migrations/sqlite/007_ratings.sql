-- Ratings (OpenSkill's Plackett-Luce model, bot/ratings.py) per server per game, and undo by
-- consent. guild_id 0 stands for "no server" (so keys never hold NULL). A player is "user:<id>"
-- or, for AI seats, "ai:<level>" (each AI strength is rated as its own entity).
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game, player)
);
-- One row per rated player per finished game, written in the game's final transaction: the
-- final post shows the change, and a game that already has rows is never rated twice.
CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player       TEXT    NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (game_id, player)
);
-- Undo by consent: one request per game position (the version it was asked at). It lapses as
-- soon as the game's version moves on; status: open, declined, done.
CREATE TABLE undo_requests (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    n          INTEGER NOT NULL,  -- the first action log entry it takes back
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    needed     TEXT    NOT NULL,  -- JSON list of the seats whose consent it needs
    status     TEXT    NOT NULL CHECK (status IN ('open', 'declined', 'done')),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, version)
);
-- Each seat answers once (the key refuses a second answer, from any process).
CREATE TABLE undo_answers (
    game_id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    agree   INTEGER NOT NULL,
    at      TEXT    NOT NULL,
    PRIMARY KEY (game_id, version, seat),
    FOREIGN KEY (game_id, version) REFERENCES undo_requests (game_id, version) ON DELETE CASCADE
);
