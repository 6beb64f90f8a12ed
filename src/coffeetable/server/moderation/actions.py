"""What a moderator's decision on a report does, and its entry in the log.

- ``warn``: a ``warning`` notification to the reported player (``Social.add``).
- ``mute``: their chat lines are refused for ``hours`` (``tables/chat.py`` reads
  ``muted_until``).
- ``suspend``: they cannot sign in (``players/service.py`` refuses), their sessions end and
  their open sockets close (``players/revocation.py``), and their seats go as when a person
  leaves (``Lobby.leave``): a bot plays a running match's seat, an open table's seat opens.
  Each leave is the API's ``table.leave`` operation, run where its table is (with several
  processes, the one that owns it: ``api/operations.py``). Their bot accounts with them:
  their keys are refused, the sockets those opened close, their seats go the same way.
  They (and their bots) are withdrawn from every tournament not over, in the same
  transaction (``store.tournaments.withdraw_accounts``).
- ``dismiss``: nothing is done to anyone.

Each closes the report with the action's name and writes one ``moderation_log`` row in the
same transaction, so an action is never done unlogged.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from coffeetable.server.players.bot_accounts import OWNER_SUSPENDED
from coffeetable.server.players.revocation import api_key, sessions_of
from coffeetable.server.social.notices import Social
from coffeetable.store import Store
from coffeetable.store import bot_accounts as bot_db
from coffeetable.store import moderation as db
from coffeetable.store import players as players_db
from coffeetable.store import social as social_db
from coffeetable.store import tournaments as tournaments_db

log = logging.getLogger("coffeetable.server")

SUSPENDED = "your account was suspended by a moderator"
#: The longest mute, in hours (30 days); longer: suspend.
MAX_MUTE_HOURS = 720


class ReportClosed(Exception):
    """The report was closed (by another moderator) meanwhile."""


async def act(
    state: Any,
    moderator_id: int,
    report: db.Report,
    action: str,
    why: str,
    hours: float | None = None,
) -> None:
    """Do ``action`` on ``report``'s player, close the report and log it (``state``: the
    app's: its store, social, players service and lobby)."""
    store: Store = state.store
    social: Social = state.social
    player = report.reported_id
    now = time.time()

    def write(conn: Any) -> bool:
        if not db.close_report(conn, report.id, action, now):
            return False
        if action == db.WARN:
            data = {"reason": report.reason}
            social.add(conn, player, social_db.WARNING, report.table_id, data)
        elif action == db.MUTE:
            assert hours is not None
            db.mute(conn, player, now + hours * 3600)
        elif action == db.SUSPEND:
            db.suspend(conn, player, now)
            players_db.delete_sessions(conn, player)
            # Out of every tournament, with their bots: a later round seats none of them.
            accounts = [player, *(bot.id for bot in bot_db.bots_of(conn, player))]
            tournaments_db.withdraw_accounts(conn, accounts, now)
        db.add_log(
            conn,
            moderator_id=moderator_id,
            player_id=player,
            action=action,
            why=why,
            report_id=report.id,
            hours=hours,
            now=now,
        )
        return True

    if not await store.write(write):
        raise ReportClosed
    log.info("moderation: %s on account %d (report %d)", action, player, report.id)
    if action == db.SUSPEND:
        await _unseat(state, player)


async def _unseat(state: Any, player: int) -> None:
    """Close a suspended account's sockets everywhere; its seats go as when a person leaves,
    on whichever process runs each table.

    ``state.run_operation`` is ``api.operations.run`` bound to the app's state (``app.py``
    sets it: moderation sits below the API, so it is handed the function, not importing it).
    """
    state.players.revocations.revoke([sessions_of(player)], SUSPENDED)

    def read(conn: Any) -> tuple[list[str], list[tuple[int, str]]]:
        bots = [bot.id for bot in bot_db.bots_of(conn, player)]
        keys = [key.id for bot in bots for key in bot_db.keys_of(conn, bot)]
        held = [
            (account, seat.table_id)
            for account in (player, *bots)
            for seat in players_db.seats_of_user(conn, account)
        ]
        return keys, held

    # Their bots too: their keys are refused from now on (``players/bot_accounts.py``), the
    # sockets they opened close, and their seats go to stand-ins as the person's do.
    keys, held = await state.store.read(read)
    state.players.revocations.revoke([api_key(key) for key in keys], OWNER_SUSPENDED)
    for account, table_id in held:
        try:
            await state.run_operation("table.leave", table_id=table_id, token="", user_id=account)
        except Exception as error:  # it ended meanwhile, or its owner is gone: go on
            log.warning("moderation: account %d keeps its seat at %s: %r", account, table_id, error)
