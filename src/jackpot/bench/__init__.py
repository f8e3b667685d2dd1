"""The load benchmark (``jackpot bench``, or ``python -m bench`` in a checkout):
signed-up players play real matches on WebSockets (or HTTP) against a server it starts."""
