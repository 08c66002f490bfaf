-- Real use: the step a button belongs to, damaged games set aside, and indexes that bound every
-- hot query by what it returns.
-- step_version: the version at which the current step began. A button drawn at version v stays
-- valid while v >= step_version (other seats handing in secret parts of one simultaneous step).
ALTER TABLE games ADD COLUMN step_version INTEGER NOT NULL DEFAULT 0;
UPDATE games SET step_version = version;
-- remind_at: half way between turn start and deadline, stored so the scheduler's query is indexed.
ALTER TABLE games ADD COLUMN remind_at TEXT;
-- A game whose stored row cannot be loaded or played is set aside: reported once, skipped by
-- every shared feature, and its players told so.
ALTER TABLE games ADD COLUMN broken_at TEXT;
ALTER TABLE games ADD COLUMN broken_reason TEXT;

DROP INDEX IF EXISTS games_by_deadline;
DROP INDEX IF EXISTS games_unposted;
CREATE INDEX games_due ON games (deadline_at) WHERE status = 'active' AND deadline_at IS NOT NULL AND broken_at IS NULL;
CREATE INDEX games_remind ON games (remind_at) WHERE status = 'active' AND reminded = 0 AND remind_at IS NOT NULL AND broken_at IS NULL;
CREATE INDEX games_unposted ON games (id) WHERE posted_version < version AND status != 'lobby' AND broken_at IS NULL;
CREATE INDEX seats_by_user_game ON seats (user_id, game_id);
DROP INDEX IF EXISTS seats_by_user;
UPDATE games SET remind_at = strftime('%Y-%m-%dT%H:%M:%S+00:00', (julianday(turn_started_at) + julianday(deadline_at)) / 2)
    WHERE turn_started_at IS NOT NULL AND deadline_at IS NOT NULL;
-- Threads of open games are kept from archiving (Discord archives after 7 idle days; games wait
-- longer): the scheduler touches a thread a few days after it last saw a post.
ALTER TABLE games ADD COLUMN thread_touched_at TEXT;
UPDATE games SET thread_touched_at = updated_at WHERE thread_id IS NOT NULL;
CREATE INDEX games_threads ON games (thread_touched_at) WHERE thread_id IS NOT NULL AND status IN ('lobby', 'active') AND broken_at IS NULL;
