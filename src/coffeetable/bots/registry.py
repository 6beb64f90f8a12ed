"""Which bots play which game.

- ``random`` plays every game.
- ``greedy`` plays every game with a heuristics module (``Game.heuristics()``:
  ``heuristics`` beside the game's module, following
  ``coffeetable.bots.hooks.Heuristics``).
- ``quick`` plays every turn-based game whose heuristics have a
  ``rollout_action`` (the policy of its search's rollouts: Doppio, Café):
  between random and greedy, and far faster than greedy (a training opponent;
  ``coffeetable.bots.quick``). Like OpenSpiel's, it is not in ``available``:
  the site does not offer it.
- ``easy``, ``medium``, ``hard`` play the real-time games with a heuristics
  module (Espresso).

- ``ismcts`` plays every turn-based game that can ``determinize``
  (``Game.can_determinize``: a perfect-information game inherits it as a
  clone) (``coffeetable.bots.ismcts``), with
  the game's heuristics module for its rollouts and evaluation when there is
  one. Its budget may follow a colon: ``ismcts:800`` searches 800 iterations
  a decision, ``ismcts:250ms`` 250 milliseconds (not reproducible); plain
  ``ismcts`` runs ``DEFAULT_ITERATIONS``. ``available`` lists ``ismcts`` only.
  A game whose heuristics set ``SEARCH = "rollout"`` (Café) gets the rollout
  algorithm over greedy (``coffeetable.bots.rollout``, its default budget) for
  plain ``ismcts``: there it is the stronger search; ``ismcts:N`` and
  ``ismcts:Nms`` are still the tree search.

- ``beginner``, ``casual``, ``strong``, ``expert``: the levels for people of
  every turn-based game with a heuristics module, weakest first
  (``coffeetable.bots.levels``); ``available`` lists them first.

``openspiel-ismcts`` and ``openspiel-mcts`` (budget ``:N`` or ``:Nms`` as
above) are OpenSpiel's search bots, built by ``coffeetable.interop.openspiel``
(needs the ``rl`` extra); they are not in ``available``.

In a real-time game ``random`` and ``greedy`` get medium's reaction times (and
never overlook a play); in a turn-based game bots act at once. Every bot gets
the game's heuristics module, if any, for the actions it skips (a repeat of
the turn's position; greedy and ISMCTS also the dominated ones: see
``coffeetable.bots.base``).
"""

from __future__ import annotations

from types import ModuleType

from coffeetable.bots.base import Bot, RandomBot
from coffeetable.bots.greedy import GreedyBot, LevelBot, SloppyBot
from coffeetable.bots.hooks import hook
from coffeetable.bots.ismcts import ISMCTSBot
from coffeetable.bots.levels import LEVEL_NAMES, recipes
from coffeetable.bots.quick import QuickBot
from coffeetable.bots.reaction import LEVELS, MEDIUM
from coffeetable.bots.rollout import RolloutBot
from coffeetable.engine import Game

#: The level policies that never determinize a state (the others search).
UNSEARCHED = ("sloppy", "greedy")


def _game(name: str) -> Game | None:
    from coffeetable import games

    try:
        return games.get(name)
    except KeyError:
        return None


def heuristics(game: str) -> ModuleType | None:
    """The game's heuristics module (``Game.heuristics``), or None if it has none."""
    found = _game(game)
    return None if found is None else found.heuristics()


def levels(game: str) -> list[str]:
    """The plain levels for people (``beginner`` ... ``expert``) ``game`` offers, weakest
    first: every turn-based game with a heuristics module; none for the others."""
    found = _game(game)
    if found is None or found.realtime or heuristics(game) is None:
        return []
    if not found.can_determinize:  # the levels that search (determinizing) are out
        return [name for name, recipe in recipes(game).items() if recipe.policy in UNSEARCHED]
    return list(LEVEL_NAMES)


def available(game: str) -> list[str]:
    names = levels(game) + ["random"]
    found = _game(game)
    if found is None:
        return names
    module = heuristics(game)
    if module is not None:
        names.append("greedy")
        if found.realtime:
            names += list(LEVELS)
    if not found.realtime and found.can_determinize:
        names.append("ismcts")
    return names


def search_bot(game: str) -> Bot:
    """The game's default search: the rollout algorithm where its heuristics ask for it
    (``SEARCH = "rollout"``), else ISMCTS at ``DEFAULT_ITERATIONS``."""
    module = heuristics(game)
    if module is not None and hook(module, "SEARCH", "ismcts") == "rollout":
        return RolloutBot(module)
    return ISMCTSBot(module)


def _ismcts(name: str, game: str) -> Bot:
    """``ismcts`` (the game's ``search_bot``), ``ismcts:N`` (N iterations) or
    ``ismcts:Nms`` (N milliseconds)."""
    if name == "ismcts":
        bot = search_bot(game)
        bot.name = name
        return bot
    _, colon, budget = name.partition(":")
    text = budget.removesuffix("ms")
    if colon and (not text.isdigit() or int(text) < 1):
        raise ValueError(
            f"an ISMCTS budget is ismcts:ITERATIONS or ismcts:MILLISECONDSms, not {name!r}"
        )
    bot = ISMCTSBot(
        heuristics(game),
        iterations=int(text) if budget and text == budget else None,
        max_ms=float(text) if budget.endswith("ms") else None,
    )
    bot.name = name
    return bot


def _level(name: str, game: str) -> Bot:
    """The bot of a plain level, named after it (its rated identity)."""
    recipe, module = recipes(game)[name], heuristics(game)
    assert module is not None
    bot: Bot
    if recipe.policy == "sloppy":
        bot = SloppyBot(module, recipe.lapse)
    elif recipe.policy == "greedy":
        bot = GreedyBot(module)
    elif recipe.policy == "rollout":
        bot = RolloutBot(module)
    else:
        bot = ISMCTSBot(module, iterations=recipe.iterations)
    bot.name = name
    return bot


def _quick(game: str) -> Bot:
    """The game's rollout policy as a bot (turn-based games whose heuristics have one)."""
    found, module = _game(game), heuristics(game)
    if found is None or found.realtime or hook(module, "rollout_action") is None:
        raise ValueError(
            f"no bot 'quick' for {game}: it needs a turn-based game whose heuristics have a "
            f"rollout_action; choose from {', '.join(available(game))}"
        )
    assert module is not None
    return QuickBot(module)


def make(name: str, game: str) -> Bot:
    if name.startswith("openspiel-"):  # OpenSpiel's bots: the optional rl extra
        from coffeetable.interop.openspiel import make_bot

        return make_bot(name, game)
    if name == "quick":  # a research opponent, not offered at the site
        return _quick(game)
    base = "ismcts" if name.startswith("ismcts:") else name
    if base not in available(game):
        raise ValueError(f"no bot {name!r} for {game}; choose from {', '.join(available(game))}")
    if base == "ismcts":
        return _ismcts(name, game)
    if base in LEVEL_NAMES:
        return _level(name, game)
    found = _game(game)
    module = heuristics(game)
    realtime = found is not None and found.realtime
    reaction = MEDIUM.reaction if realtime else None
    if name == "random":
        return RandomBot(reaction=reaction, heuristics=module)
    assert module is not None
    if name == "greedy":
        return GreedyBot(module, reaction=reaction)
    return LevelBot(module, LEVELS[name])
