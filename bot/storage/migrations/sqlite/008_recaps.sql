-- The animated recap of a finished game is posted once: a process claims it (a lease, so a crash
-- mid-way lets another try later), posts it, and records the message. Games that ended before
-- this migration get no recap (message id 0 = nothing to post).
ALTER TABLE games ADD COLUMN recap_claimed_until TEXT;
ALTER TABLE games ADD COLUMN recap_message_id INTEGER;
ALTER TABLE games ADD COLUMN recap_attempts INTEGER NOT NULL DEFAULT 0;
UPDATE games SET recap_message_id = 0 WHERE status IN ('finished', 'abandoned');
CREATE INDEX games_recap_due ON games (id) WHERE status = 'finished' AND recap_message_id IS NULL AND broken_at IS NULL;
