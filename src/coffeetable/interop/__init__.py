"""Doors for AI research: every game as a PettingZoo environment and an OpenSpiel game.

- ``coffeetable.interop.encoding``: the generic part, a game's fixed integer
  action space and fixed-shape observation (``Codec``), built by one module
  per game in the game's folder (``Game.codec()``: ``games/<name>/codec.py``,
  imported only when asked, so numpy stays optional for the rest).
- ``coffeetable.interop.pettingzoo``: a module a game, ``fika_v1`` ... with
  ``env``, ``raw_env`` (and ``parallel_env`` in real time); ``env(name, **options)``
  (AEC) and ``parallel_env("espresso", **options)`` as before.
- ``coffeetable.interop.gym`` and ``coffeetable.interop.vector``: one seat against
  bots, alone or as many copies in a Gymnasium vector environment.
- ``coffeetable.interop.openspiel``: ``register()`` the python games
  ``coffeetable_doppio``, ``coffeetable_fika`` and ``coffeetable_cafe``.

numpy, PettingZoo, Gymnasium and OpenSpiel are the optional ``rl`` extra
(``pip install coffeetable[rl]``); nothing outside this package imports them.
The layouts are documented in docs/research.md.
"""

from __future__ import annotations

from coffeetable.interop.encoding import Codec, codec

__all__ = ["Codec", "codec"]
