-- Spectators: who follows which game, since when, and the turn (the game version at which the
-- current wait began) each follower was last told about. A process sends a turn notice only after
-- moving notified_version forward itself, so of several bot processes exactly one sends it.
CREATE TABLE followers (
    game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id          INTEGER NOT NULL,
    since            TEXT    NOT NULL,
    notified_version INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX followers_user ON followers (user_id);
