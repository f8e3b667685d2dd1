"""Players: ratings, match review, leaderboard, profiles, replay and odds.

Ratings come with the per-seat figures of finished matches; profiles with history.
"""
