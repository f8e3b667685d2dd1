"""Watching matches: the list of public matches between people being played now."""
