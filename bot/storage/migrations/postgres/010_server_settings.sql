-- PostgreSQL twin of ../010_server_settings.sql (ids as BIGINT).
CREATE TABLE server_settings (
    guild_id       BIGINT PRIMARY KEY,
    stand_in_level TEXT CHECK (stand_in_level IN ('easy', 'normal', 'hard')),
    updated_by     BIGINT NOT NULL,
    updated_at     TEXT   NOT NULL
);
