"""Friends, blocks, invitations by name, notifications and mail.

``Social`` (``notices.py``) is the one object the rest of the server calls to notify an
account (``await social.notify(...)``), and the tables' news writer (``tables/news.py``).
``api.py`` holds the routes.
"""

from coffeetable.server.social.notices import Social

__all__ = ["Social"]
