"""The players layer: accounts, sessions, ratings, profiles (beside the tables).

- ``usernames``, ``passwords``: what a username and a password may be;
  argon2id hashing off the event loop.
- ``sessions``: the session cookie and its flags; ``throttle``: slowing down
  repeated failures.
- ``service``: ``PlayersService`` (sign up, sign in, sessions, seat claims),
  one per app as ``app.state.players``.
- ``ratings``: openskill ratings and ``finish_match``, which records a
  finished match in the caller's transaction.
- ``seat_tokens``: the tokens guests hold seats by (claimed for an account).
- ``bot_accounts``, ``api_keys``, ``bot_seats``: a person's bots (programs),
  their API keys (``Authorization: Bearer``), and their seats at tables.
- ``routes``: the HTTP API (``routes.router``): ``/api/auth/*``, ``/api/me``,
  ``/api/players/{name}``, ``/api/leaderboards/{game}``, ``/api/matches``, and
  ``bots_api``: ``/api/bots/*``, ``/api/leaderboards/{game}/bots``.
"""

from coffeetable.server.players.service import PlayersService

__all__ = ["PlayersService"]
