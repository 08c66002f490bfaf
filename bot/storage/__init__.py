"""Storage: the row types, the SQLite and PostgreSQL stores and their parts, and the migrations."""
