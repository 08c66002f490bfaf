-- PostgreSQL twin of ../011_undo_posts.sql: the undo request's post, whose buttons go once it ends.
ALTER TABLE undo_requests ADD COLUMN message_id BIGINT;
ALTER TABLE undo_requests ADD COLUMN controls_retired INTEGER NOT NULL DEFAULT 0;
