-- PostgreSQL twin of ../003_play_over_days.sql. Flags stay INTEGER 0/1 as on SQLite.
ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE games ADD COLUMN turn_started_at TEXT;
ALTER TABLE games ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN status_message_id BIGINT;
ALTER TABLE games ADD COLUMN rematch_id BIGINT;
CREATE INDEX games_by_deadline ON games (status, deadline_at);

ALTER TABLE seats ADD COLUMN absences INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN vacation_until TEXT;
ALTER TABLE seats ADD COLUMN vacation_days_used INTEGER NOT NULL DEFAULT 0;

ALTER TABLE actions ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;

ALTER TABLE user_settings ADD COLUMN dm_reminders INTEGER NOT NULL DEFAULT 0;

CREATE TABLE results (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id BIGINT,
    game     TEXT    NOT NULL,
    user_id  BIGINT  NOT NULL,
    won      INTEGER NOT NULL,
    draw     INTEGER NOT NULL,
    at       TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX results_by_guild ON results (guild_id, game, user_id);
