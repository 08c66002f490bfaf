-- PostgreSQL twin of ../005_decks_and_preferences.sql.
CREATE TABLE decks (
    user_id  BIGINT NOT NULL,
    game     TEXT   NOT NULL,
    name     TEXT   NOT NULL,
    code     TEXT   NOT NULL,
    saved_at TEXT   NOT NULL,
    PRIMARY KEY (user_id, game, name)
);

ALTER TABLE user_settings ADD COLUMN preferences TEXT NOT NULL DEFAULT '{}';
