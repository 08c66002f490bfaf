-- Games, their seats and the append-only action log.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    game             TEXT    NOT NULL,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    creator_id       INTEGER NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    options          TEXT    NOT NULL,
    seed             INTEGER,
    state            TEXT,
    state_format     INTEGER NOT NULL DEFAULT 1,
    version          INTEGER NOT NULL DEFAULT 0,
    board_message_id INTEGER,
    posted_version   INTEGER NOT NULL DEFAULT -1,
    locale           TEXT    NOT NULL DEFAULT 'en',
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    deadline_at      TEXT
);
CREATE INDEX games_by_guild_status ON games (guild_id, status);
CREATE INDEX games_unposted ON games (status, posted_version, version);
CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_by_thread ON games (thread_id, status);

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    joined_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n       INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    user_id INTEGER,
    action  TEXT    NOT NULL,
    version INTEGER NOT NULL,  -- the game version this action produced
    at      TEXT    NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE INDEX actions_by_seat ON actions (game_id, seat, version);

CREATE TABLE user_settings (
    user_id INTEGER PRIMARY KEY,
    dm_open INTEGER,
    locale  TEXT
);
