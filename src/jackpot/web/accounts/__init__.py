"""Accounts: credentials, password resets, account changes, their API and pages."""
