"""Bot levels for people: plain names for the turn-based games, weakest first.

=========  ==========================================================  =================
level      what it is                                                  built as
=========  ==========================================================  =================
beginner   greedy that lapses: half its plays are a random candidate   ``SloppyBot(0.5)``
casual     greedy: the best immediate action by the game's heuristic   ``greedy``
strong     ISMCTS on a small budget                                    ``ismcts:25``
expert     ISMCTS at its default budget (Doppio: 400 iterations)       ``ismcts``
=========  ==========================================================  =================

A game may map a level differently (its ``Game.bot_levels``, recipe fields by level) so
that the order stays the order of measured strength there (docs/benchmarks.md, "Bot
levels"). In Doppio the default budget (100 iterations) plays no better than 25: a turn
has some 60 candidate moves, so 100 iterations barely try each once. There the expert
searches 400 iterations (65 of 100 matches against strong's 50, 15 shared). In Café the
tree search only ties greedy, so there casual is a greedy that lapses one play in five,
strong is greedy itself, and expert is the rollout algorithm over greedy (``rollout``:
``coffeetable.bots.rollout``, greedy rolled out to the end of the round, at 2 players to
the match's end from round 7), which beats greedy at 2 players (144 of 200 matches at
cdb2f04) and at 4 wins a little more often than each greedy seat (60 of 200 against 54, 50
and 44; the intervals overlap). Each level's bot carries the level's name (``bot.name``),
so it is rated on the site under that name. The old names (``random``, ``greedy``,
``ismcts``, ``ismcts:N``) keep working beside these.
"""

from __future__ import annotations

from dataclasses import dataclass

from coffeetable import games

#: The plain level names, weakest first.
LEVEL_NAMES = ("beginner", "casual", "strong", "expert")


@dataclass(frozen=True)
class Recipe:
    """How a level is built: ``policy`` is ``sloppy`` (greedy that lapses with probability
    ``lapse``), ``greedy``, ``ismcts`` (``iterations``, None for the default) or
    ``rollout`` (the rollout algorithm over greedy at its default budget)."""

    policy: str
    lapse: float = 0.0
    iterations: int | None = None


#: The levels of a turn-based game, unless the game's ``Game.bot_levels`` say otherwise.
DEFAULT_LEVELS: dict[str, Recipe] = {
    "beginner": Recipe("sloppy", lapse=0.5),
    "casual": Recipe("greedy"),
    "strong": Recipe("ismcts", iterations=25),
    "expert": Recipe("ismcts"),
}


def recipes(game: str) -> dict[str, Recipe]:
    """The levels of ``game`` (a turn-based game), weakest first: ``DEFAULT_LEVELS`` with
    the game's own (``Game.bot_levels``; Doppio: the expert searches 400 iterations, as
    100 play no better than strong's 25 there; Café: the tree search only ties greedy
    there (docs/benchmarks.md), so greedy is "strong", "casual" a greedy that lapses 1
    play in 5, and "expert" the rollout algorithm over greedy, Café's ``ismcts``)."""
    own = games.get(game).bot_levels
    unknown = sorted(set(own) - set(LEVEL_NAMES))
    if unknown:
        raise ValueError(f"{game} sets bot levels {unknown}; the levels are {list(LEVEL_NAMES)}")
    return {**DEFAULT_LEVELS, **{name: Recipe(**fields) for name, fields in own.items()}}
