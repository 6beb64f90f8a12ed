"""A policy trained on our environments, playing on the site: ``site_policy``.

    from coffeetable import client
    from coffeetable.interop.site import site_policy, sb3_policy

    model = MaskablePPO.load("fika.zip")
    client.play(url, key, site_policy("fika", sb3_policy(model)), game="fika",
                games=10, opponents=["greedy"])

A policy of the PettingZoo environment (``coffeetable.interop.pettingzoo``)
maps an observation and an action mask to an action index. The site sends a
seat its view (``state.view(seat)`` as JSON) and its legal actions; the
client (``coffeetable.client``) asks ``policy(view, legal) -> action``.
``site_policy(game, policy, **options)`` is that client policy:

1. the observation is the codec's ``observe(view)``: the environment builds
   its observations from the same view, so they are equal (the tests check
   it over many random positions, through a JSON round trip);
2. the mask is built from the ``legal`` list, each action encoded from the
   view (``Codec.legal_in_view``; Café's frame is found from the view's
   squares and its deliveries read the view's areas and cafés, as the
   environment reads the state's): the environment's own mask, the same
   space (Doppio without undo);
3. the policy's index is decoded to the legal action it stands for.

Nothing but the view and the legal list is read: a seat learns no more at
the site than at the environment. ``options`` are the game options the
policy was trained with (they can change the spaces: Espresso's Zero and
Chaos); the table size is the view's.

Espresso: the environment's no-op ("nothing this tick") has no message at
the site, where the client answers each state that offers the seat
something; so the no-op is offered only when nothing else is legal, and
waiting means taking the next state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from coffeetable.engine import Action, View
from coffeetable.interop.encoding import Codec, codec, get_game
from coffeetable.interop.pettingzoo import action_count

#: ``policy(observation, mask) -> index``: a policy of our PettingZoo environments.
IndexPolicy = Callable[[np.ndarray, np.ndarray], int]


class SitePolicy:
    """``policy(view, legal) -> action`` around an index policy; see the module docstring."""

    def __init__(self, game: str, policy: IndexPolicy, **options: Any) -> None:
        self.game = game
        self.policy = policy
        self.options = dict(options)
        codec(game, None, **self.options)  # unknown games and bad options fail here, at once
        #: (observation, mask, index chosen, action sent) of each decision, when recording.
        self.record: list[tuple[np.ndarray, np.ndarray, int, Action]] | None = None

    def codec_for(self, view: Mapping[str, Any]) -> Codec:
        players = view.get("players")
        if not isinstance(players, list) or not players:
            raise ValueError("the view has no players: is it a view of this game?")
        return codec(self.game, len(players), **self.options)

    def encode(
        self, view: View, legal: Sequence[Action]
    ) -> tuple[np.ndarray, np.ndarray, dict[int, Action]]:
        """The observation, the mask and index -> legal action, from the view and legal list."""
        if view.get("game") != self.game:
            raise ValueError(f"a view of {view.get('game')!r}, not of {self.game!r}")
        if view.get("seat") is None:
            raise ValueError("a spectator's view: the policy plays a seat")
        table = self.codec_for(view)
        size = action_count(table)
        indices = {
            index: action
            for index, action in table.legal_in_view(legal, view).items()
            if index < size
        }
        mask = np.zeros(size, dtype=np.int8)
        if indices:
            mask.put(list(indices), 1)
        elif get_game(self.game).realtime:
            mask[size - 1] = 1  # the no-op of a real-time codec: nothing in the space to play
        return table.observe(view), mask, indices

    def __call__(self, view: View, legal: list[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        observation, mask, indices = self.encode(view, legal)
        if not indices:
            # every legal action is outside the space (a Café split delivery only):
            # the environment's mask would be the same; play the first, as the client does
            return legal[0]
        index = int(self.policy(observation, mask))
        if index not in indices:
            raise ValueError(f"the policy chose index {index}, which its mask forbids")
        action = indices[index]
        if self.record is not None:
            self.record.append((observation, mask, index, action))
        return action


def site_policy(game: str, policy: IndexPolicy, **options: Any) -> SitePolicy:
    """The client policy ``(view, legal) -> action`` playing ``policy`` on the site."""
    return SitePolicy(game, policy, **options)


def sb3_policy(model: Any, deterministic: bool = True) -> IndexPolicy:
    """An index policy from a Stable-Baselines3 model that takes ``action_masks``
    (sb3-contrib's MaskablePPO)."""

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(
            observation, action_masks=mask.astype(bool), deterministic=deterministic
        )
        return int(action)

    return policy
