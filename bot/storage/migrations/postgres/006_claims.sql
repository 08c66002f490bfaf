-- PostgreSQL twin of ../006_claims.sql. Claims are single UPDATE ... WHERE statements: under READ
-- COMMITTED a second process's UPDATE waits for the first's row lock and re-checks the condition,
-- so exactly one process claims.
ALTER TABLE games ADD COLUMN repost_claimed_until TEXT;
