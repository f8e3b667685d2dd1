"""A move's storage: its SQL per database, its parameters, and the matches kept as committed."""
