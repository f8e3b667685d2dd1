"""The database underneath: connections, the one SQLite writer, group commit, migrations."""
