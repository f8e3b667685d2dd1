"""Reading matches: the store, public views, lists, seats, the live-state reference.

The store is a match's row and seats; the views its public state and record.
"""
