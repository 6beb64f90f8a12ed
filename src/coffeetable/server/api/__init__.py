"""The HTTP API, by concern (the players' routes are ``players.routes``).

- ``tables``: games, tables, seats; ``play_now``: the play-now queues; ``review``:
  reviews with the bot (``review_jobs`` runs them);
- ``table_requests``, ``schemas``: the request and answer models; ``openapi``,
  ``docs``, ``protocol``: the OpenAPI document, ``/docs``, and the socket's AsyncAPI;
- ``operations``: what the routes do, as functions another process can run;
  ``replays``: finished matches replayed.
"""
