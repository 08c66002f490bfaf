-- Per-user saved decks (a game's deck codes, by name) and per-user preferences that games and
-- views read (standing policies, board view choices), as one JSON object per user.
CREATE TABLE decks (
    user_id  INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    name     TEXT    NOT NULL,
    code     TEXT    NOT NULL,
    saved_at TEXT    NOT NULL,
    PRIMARY KEY (user_id, game, name)
);

ALTER TABLE user_settings ADD COLUMN preferences TEXT NOT NULL DEFAULT '{}';
