-- PostgreSQL twin of ../004_real_use.sql: the same columns and partial indexes (PostgreSQL's
-- planner proves a query's WHERE implies an index's, so the hot queries need no index hints).
ALTER TABLE games ADD COLUMN step_version INTEGER NOT NULL DEFAULT 0;
UPDATE games SET step_version = version;
ALTER TABLE games ADD COLUMN remind_at TEXT;
ALTER TABLE games ADD COLUMN broken_at TEXT;
ALTER TABLE games ADD COLUMN broken_reason TEXT;

DROP INDEX IF EXISTS games_by_deadline;
DROP INDEX IF EXISTS games_unposted;
CREATE INDEX games_due ON games (deadline_at) WHERE status = 'active' AND deadline_at IS NOT NULL AND broken_at IS NULL;
CREATE INDEX games_remind ON games (remind_at) WHERE status = 'active' AND reminded = 0 AND remind_at IS NOT NULL AND broken_at IS NULL;
CREATE INDEX games_unposted ON games (id) WHERE posted_version < version AND status != 'lobby' AND broken_at IS NULL;
CREATE INDEX seats_by_user_game ON seats (user_id, game_id);
DROP INDEX IF EXISTS seats_by_user;
-- Half way between turn start and deadline, written as SQLite's migration writes it (UTC, +00:00).
UPDATE games SET remind_at = to_char(
        (turn_started_at::timestamptz + (deadline_at::timestamptz - turn_started_at::timestamptz) / 2) AT TIME ZONE 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')
    WHERE turn_started_at IS NOT NULL AND deadline_at IS NOT NULL;
ALTER TABLE games ADD COLUMN thread_touched_at TEXT;
UPDATE games SET thread_touched_at = updated_at WHERE thread_id IS NOT NULL;
CREATE INDEX games_threads ON games (thread_touched_at) WHERE thread_id IS NOT NULL AND status IN ('lobby', 'active') AND broken_at IS NULL;
