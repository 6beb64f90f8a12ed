"""Play on a Coffee Table site as a bot account, from Python (asyncio + websockets).

    from coffeetable import client

    def policy(view, legal):
        return legal[0]

    client.play("http://127.0.0.1:8000", "ctb_...", policy, game="fika", games=10,
                opponents=["greedy"])

The protocol underneath is the table's WebSocket protocol (docs/bots.md);
any language can speak it. ``serve`` offers a policy to ``coffeetable arena
--bots remote:ws://HOST:PORT`` to try it against the site's bots offline.
"""

from coffeetable.client.http import Site, SiteError
from coffeetable.client.play import MatchResult, PlayError, Policy, play, play_async, play_table

__all__ = [
    "MatchResult",
    "PlayError",
    "Policy",
    "Site",
    "SiteError",
    "play",
    "play_async",
    "play_table",
]
