"""The database tables (SQLAlchemy Core): ``core`` for accounts and matches, one per feature."""
