"""The programs' league: a standing round robin of the bot accounts that opt in, with
the site's bot levels as fixed references (``runner.py`` plays it, ``routes.py`` shows it)."""
