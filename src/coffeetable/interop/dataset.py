"""Imitation-learning samples from the open database of matches (``coffeetable export``).

``samples(lines)`` replays each exported match (``engine.replay``'s rules, the line's
seed and options) and yields, before every action a seat took, what that seat saw and
did, in the encoding the environments use (docs/research.md)::

    from coffeetable.interop.dataset import samples

    with open("fika.jsonl") as lines:
        for sample in samples(lines):
            sample.observation, sample.mask, sample.action   # float32, int8, an index

- ``observation``: the codec's observation of the seat's view (``observe_state``), as
  the PettingZoo environment's; ``mask``: its legal actions, int8, over the RL action
  space (the codec's, less a game's undo: ``action_count``); ``action``: the index of
  what the seat played.
- Left out, and counted in ``Skipped``: a game's undo (a person's misclick taken back,
  outside every RL space) and an action the space has no index for (a Café delivery
  split as no recipient gives it). Table actions (seat None: timers) are applied, not
  sampled.
- ``seats``: only these seats' actions (say, the winners', or a rated account's:
  ``keep(line, seat)``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from coffeetable.engine.replay import game_named
from coffeetable.interop.encoding import Codec, action_key, codec
from coffeetable.interop.pettingzoo_table import action_count


@dataclass(frozen=True)
class Sample:
    """One decision of one seat in an exported match."""

    observation: NDArray[np.float32]
    mask: NDArray[np.int8]
    action: int
    seat: int
    match_id: int | None
    #: The action's place in the match's log (0: the first action).
    step: int


@dataclass
class Skipped:
    """What ``samples`` left out, by reason (filled as it goes)."""

    undo: int = 0
    no_index: int = 0
    other_games: int = 0
    matches: int = 0


def read_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The matches of an export's lines (blank lines skipped); ValueError on a bad line."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"line {number} is not JSON: {error.msg}") from None
        if not isinstance(line, dict) or "actions" not in line or "game" not in line:
            raise ValueError(f"line {number} is not an exported match")
        yield line


def samples(
    lines: Iterable[str],
    game: str | None = None,
    keep: Callable[[dict[str, Any], int], bool] | None = None,
    skipped: Skipped | None = None,
) -> Iterator[Sample]:
    """Every (observation, mask, action) of the exported matches in ``lines`` (of
    ``game`` only, if given; of the seats ``keep(line, seat)`` accepts, if given)."""
    skipped = skipped if skipped is not None else Skipped()
    codecs: dict[tuple[str, int, str], Codec] = {}
    for line in read_lines(lines):
        if game is not None and line["game"] != game:
            skipped.other_games += 1
            continue
        engine = game_named(line["game"])
        options = engine.resolve_options(line.get("options") or {})
        players = int(line["players"])
        key = (engine.name, players, json.dumps(options, sort_keys=True))
        table = codecs.get(key)
        if table is None:
            table = codecs[key] = codec(engine.name, players, **options)
        size = action_count(table)
        undo = None if engine.undo_action is None else action_key(engine.undo_action)
        state = engine.new_state(players=players, seed=int(line["seed"]), **options)
        skipped.matches += 1
        for step, (seat, action) in enumerate(line["actions"]):
            if seat is not None and (keep is None or keep(line, seat)):
                if undo is not None and action_key(action) == undo:
                    skipped.undo += 1
                else:
                    index = table.encode(action, state, seat)
                    if index is None or index >= size:
                        skipped.no_index += 1
                    else:
                        yield Sample(
                            table.observe_state(state, seat).copy(),
                            table.mask(state, seat)[:size].copy(),
                            index,
                            seat,
                            line.get("match_id"),
                            step,
                        )
            state.apply(seat, action)
