-- The post that asks the other players about an undo carries Agree / Decline buttons; once the
-- request ends (agreed, declined, or lapsed because the game moved on) those buttons are removed.
-- message_id: that post (NULL until delivered); controls_retired: its buttons are gone.
ALTER TABLE undo_requests ADD COLUMN message_id INTEGER;
ALTER TABLE undo_requests ADD COLUMN controls_retired INTEGER NOT NULL DEFAULT 0;
