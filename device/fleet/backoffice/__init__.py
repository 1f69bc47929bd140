"""The café's back office: the dashboard's staff-only pages under /admin.

A staff password (password.py, only its scrypt hash kept) opens a session (sessions.py) in a
signed, HttpOnly, SameSite=Strict cookie; every change also needs the session's CSRF token.
The history of every finished game the dashboard hears is kept in SQLite (history.py), with
leaderboards per game and period (leaderboard.py). Players, staff cards and decks are read
and changed through the very functions the command line uses (roster.py, staff.py).
"""
