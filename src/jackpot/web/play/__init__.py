"""Playing a match: actions, routes, pages, fast lane, live events, rematch, sweeper."""
