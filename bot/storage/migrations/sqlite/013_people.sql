-- The people around the board (issue 34).
-- Each person's time zone (an IANA name, e.g. Asia/Tokyo) and quiet hours ('23:00-08:00', read in
-- that zone; NULL: none).
ALTER TABLE user_settings ADD COLUMN time_zone TEXT;
ALTER TABLE user_settings ADD COLUMN quiet_hours TEXT;
-- Notices held through a person's quiet hours: one row per person, game and kind (turn, reminder,
-- request, invite). At release_at one process takes (deletes) a person's due rows and sends them
-- as one message, saying only what is still true then.
CREATE TABLE held_notices (
    user_id    INTEGER NOT NULL,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('turn', 'reminder', 'request', 'invite')),
    held_at    TEXT    NOT NULL,
    release_at TEXT    NOT NULL,
    PRIMARY KEY (user_id, game_id, kind)
);
CREATE INDEX held_notices_due ON held_notices (release_at, user_id);
-- Each person's ping choices, per game or (game_id 0) as their default; NULL: fall back to the
-- default, then to the bot's (mode 'mine', via from dm_reminders, last_wait on).
--   mode: every (each turn), mine (only when I must act), before (also when the seat before mine
--   starts), digest (one daily message), none; via: channel, dm or both; last_wait: the "you are the
--   last one we wait for" notice in a simultaneous step.
CREATE TABLE ping_choices (
    user_id   INTEGER NOT NULL,
    game_id   INTEGER NOT NULL,
    mode      TEXT CHECK (mode IN ('every', 'mine', 'before', 'digest', 'none')),
    via       TEXT CHECK (via IN ('channel', 'dm', 'both')),
    last_wait INTEGER,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX ping_choices_mode ON ping_choices (mode, user_id);
-- The local date of the last daily digest sent to a person (claimed by one process).
ALTER TABLE user_settings ADD COLUMN digest_on TEXT;
-- Notices posted about a game's turn (reminders, "you are the last one", digests, released
-- pings): deleted once every game a message names has moved past the turn it spoke of.
CREATE TABLE notice_posts (
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    game_id    INTEGER NOT NULL,
    turn       INTEGER NOT NULL,
    retired    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message_id, game_id)
);
CREATE INDEX notice_posts_game ON notice_posts (game_id, retired);
-- Proposals that need the others' consent, answered by buttons, stored so they survive restarts:
-- deadline votes (pause, extend by hours, advance now), draw offers / agreed ends, and a seat
-- handed to a substitute (target_id, who alone answers; holder_id held the seat when it was
-- offered). An open vote or offer lapses when the turn
-- it was made in passes, and every proposal expires at expires_at; one open at a time per game
-- (a seat hand-over apart). message_id: the post with its buttons, removed once it ended.
CREATE TABLE proposals (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind             TEXT    NOT NULL CHECK (kind IN ('pause', 'extend', 'advance', 'draw', 'substitute')),
    seat             INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    turn             INTEGER NOT NULL,
    hours            REAL,
    target_id        INTEGER,
    holder_id        INTEGER,
    needed           TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('open', 'passed', 'declined', 'expired', 'lapsed')),
    created_at       TEXT    NOT NULL,
    expires_at       TEXT    NOT NULL,
    message_id       INTEGER,
    controls_retired INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX proposals_one_open ON proposals (game_id, kind = 'substitute') WHERE status = 'open';
CREATE INDEX proposals_due ON proposals (status, expires_at);
CREATE INDEX proposals_by_game ON proposals (game_id, status);
-- Each seat answers a proposal once (the key refuses a second answer, from any process).
CREATE TABLE proposal_answers (
    proposal_id INTEGER NOT NULL REFERENCES proposals (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    agree       INTEGER NOT NULL,
    at          TEXT    NOT NULL,
    PRIMARY KEY (proposal_id, seat)
);
-- Seats handed to a substitute: who held the seat from which log entry on (the history and the
-- export show it; ratings credit each holder for their share of the seat's moves).
CREATE TABLE substitutions (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    from_user INTEGER NOT NULL,
    to_user   INTEGER NOT NULL,
    after_n   INTEGER NOT NULL,
    version   INTEGER NOT NULL,
    at        TEXT    NOT NULL,
    by_user   INTEGER NOT NULL,
    PRIMARY KEY (game_id, version, seat)
);
