-- A random salt per game: the start post commits to sha256("seed:salt"), the end post reveals both.
ALTER TABLE games ADD COLUMN salt TEXT;
