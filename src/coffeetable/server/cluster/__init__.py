"""Several server processes on one PostgreSQL and one Redis (absent: one process).

One idea keeps this simple: **a table has exactly one owner process**, which
runs its actor, bots and timers as a single process does. Everything else is
about reaching that owner:

- ``leases.py``: the owner holds a lease on the table in Redis (``SET NX PX``,
  renewed every third of its life). A process that dies stops renewing; its
  leases expire, or are taken at once once its heartbeat key has expired. The
  log's ``(table_id, seq)`` primary key is the fence: a process that lost its
  lease cannot append an action the new owner appended.
- ``bus.py``: each process listens on its own Redis channel. Messages to
  another process go out in order (one publisher per destination), and calls
  (join a table, leave, seat a bot, rematch, play now...) are answered on the
  caller's channel.
- ``relay.py``: a WebSocket may reach any process. If its table is elsewhere,
  the process keeps the socket (its size and rate limits apply there) and
  relays its messages to the owner, where a ``RemoteConnection`` stands for
  it. The owner computes each client's state for that client's seat and sends
  it only to the process that holds that client: no process is ever sent a
  view its own clients may not see.
- ``shared.py``: what must be counted across processes (sockets and tables
  per address, sign-in failures) and the lobby's list of live tables.
- ``node.py``: the ``Cluster`` that runs it all: the heartbeat, lease
  renewal, adopting tables whose owner died (rebuilt from the log, bots and
  clocks restarted), and handing tables over on shutdown (SIGTERM) without
  waiting for leases to expire.

Its refusals (``Elsewhere``, ``OwnerGone``) are in ``server/errors.py``.
"""
