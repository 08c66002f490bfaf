-- Tournaments and leagues (issue #35). A tournament belongs to the server it was made in; its row
-- carries a version (every change compares and bumps it, as games do), the round under way and
-- the stage its announcements have reached (stage: bumped by each change the channel must hear
-- of; announced: the last stage posted; a stage is claimed for posting until announce_claimed_until
-- by one process, announce_claim_stage saying which: a newer stage need not wait for that claim).
CREATE TABLE tournaments (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id               INTEGER NOT NULL,
    channel_id             INTEGER NOT NULL,
    creator_id             INTEGER NOT NULL,
    kind                   TEXT    NOT NULL CHECK (kind IN ('swiss', 'roundrobin', 'elimination', 'league')),
    game                   TEXT    NOT NULL,
    options                TEXT    NOT NULL,
    settings               TEXT    NOT NULL,
    status                 TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished', 'abandoned')),
    round                  INTEGER NOT NULL DEFAULT 0,
    version                INTEGER NOT NULL DEFAULT 0,
    stage                  INTEGER NOT NULL DEFAULT 0,
    announced              INTEGER NOT NULL DEFAULT 0,
    announce_claimed_until TEXT,
    announce_claim_stage   INTEGER NOT NULL DEFAULT 0,
    locale                 TEXT    NOT NULL DEFAULT 'en',
    created_at             TEXT    NOT NULL,
    updated_at             TEXT    NOT NULL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_running ON tournaments (status, kind);
CREATE INDEX tournaments_unannounced ON tournaments (id) WHERE announced < stage;

-- The players: entry is their number in the tournament (shown in its pictures), seed their
-- place in the starting order; joined_round the first round they may be paired in (late joiners
-- of a Swiss event), dropped_round the first they no longer are; waiting_since: a league player
-- who asked for a game and waits for an opponent.
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    entry         INTEGER NOT NULL,
    joined_at     TEXT    NOT NULL,
    joined_round  INTEGER NOT NULL DEFAULT 1,
    dropped_round INTEGER,
    seed          INTEGER,
    waiting_since TEXT,
    PRIMARY KEY (tournament_id, user_id),
    UNIQUE (tournament_id, entry)
);
CREATE INDEX tournament_players_by_user ON tournament_players (user_id);

-- The tables of each round (a league's games are round 0): their players (JSON, in the order of
-- the pairing) and game, or no game for a bye or a walkover; places (JSON, aligned with players)
-- once the game ended ([] when it was abandoned), and a note (bye, walkover, forfeit, void).
-- The key (tournament, round, table) is written in the same transaction as the table's game, so
-- a round paired twice (a crash, two processes) cannot create a second set of games.
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    game_id       INTEGER UNIQUE REFERENCES games (id),
    players       TEXT    NOT NULL,
    places        TEXT,
    note          TEXT,
    PRIMARY KEY (tournament_id, round, table_no)
);
CREATE INDEX tournament_tables_unrecorded ON tournament_tables (game_id) WHERE places IS NULL AND game_id IS NOT NULL;
