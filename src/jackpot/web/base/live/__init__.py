"""Live events: the bus (in process or over Redis) and what counts the open streams."""
