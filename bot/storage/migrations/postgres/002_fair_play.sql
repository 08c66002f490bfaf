-- PostgreSQL twin of ../002_fair_play.sql.
ALTER TABLE games ADD COLUMN salt TEXT;
