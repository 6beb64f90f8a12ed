"""The game server: HTTP API, WebSocket tables, lobby, seats and tokens, bot seats.

``create_app()`` builds the ASGI app; ``serve()`` runs it (``coffeetable serve``).
"""

from coffeetable.server.app import create_app, serve

__all__ = ["create_app", "serve"]
