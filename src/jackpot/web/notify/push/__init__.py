"""Web Push (RFC 8030/8291/8292): browsers told what the turn mails tell.

Keys, endpoint checks, the subscriptions store, the sender (a step of the
sweeper), the texts and the routes; the tables are in base/tables/push.py.
"""
