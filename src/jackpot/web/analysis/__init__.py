"""The analysis board: any position typed in, with the exact odds of every choice."""
