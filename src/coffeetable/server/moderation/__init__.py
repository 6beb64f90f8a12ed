"""Reports and moderation: a player reports another (``reports.py``); moderators read the
open reports with their context and warn, mute, suspend or dismiss (``actions.py``,
``api.py``); every action is logged (``store.moderation``). Moderators are named on the
command line (``coffeetable moderators add NAME``)."""
