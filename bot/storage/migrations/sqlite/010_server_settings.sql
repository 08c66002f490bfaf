-- Per-server settings, changed only by a server's admins (Manage Server or Administrator):
-- stand_in_level is the strength of the AI that plays for a player who missed their deadline,
-- in this server's games that did not choose one themselves (/game new ai:). No row, or NULL:
-- the bot's default (normal).
CREATE TABLE server_settings (
    guild_id       INTEGER PRIMARY KEY,
    stand_in_level TEXT CHECK (stand_in_level IN ('easy', 'normal', 'hard')),
    updated_by     INTEGER NOT NULL,
    updated_at     TEXT    NOT NULL
);
