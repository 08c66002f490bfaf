-- PostgreSQL twin of ../008_recaps.sql: the recap of a finished game is claimed by a lease and
-- posted once; games that ended before this migration get none (message id 0).
ALTER TABLE games ADD COLUMN recap_claimed_until TEXT;
ALTER TABLE games ADD COLUMN recap_message_id BIGINT;
ALTER TABLE games ADD COLUMN recap_attempts INTEGER NOT NULL DEFAULT 0;
UPDATE games SET recap_message_id = 0 WHERE status IN ('finished', 'abandoned');
CREATE INDEX games_recap_due ON games (id) WHERE status = 'finished' AND recap_message_id IS NULL AND broken_at IS NULL;
