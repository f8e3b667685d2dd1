"""Play facing the network: the match API and pages, the fast lane, the socket, the streams."""
