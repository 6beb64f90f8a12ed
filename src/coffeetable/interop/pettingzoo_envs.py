"""Every game as a PettingZoo environment.

``env(name, players=None, max_cycles=None, render_mode=None, illegal="raise",
mask_dtype="int8", **options)`` returns an AEC environment for "doppio", "fika",
"cafe" and "espresso"; ``parallel_env("espresso", ...)`` a Parallel one for
real-time Espresso. Game options (``master=True``, ``zero=True``, ``target=20``, ...) pass through.

- Agents are ``player_0`` .. ``player_{n-1}``, seat numbers in order.
- Each agent's action space is ``Discrete(n)``: the game's fixed integer
  encoding of its JSON actions (``coffeetable.interop.<game>``,
  docs/research.md), less Doppio's ``undo`` (its last index: a policy could
  play and undo a move forever, and undo is never needed to play well).
  Observations are dicts ``{"observation": float32 vector in [0, 1] of the
  seat's view, "action_mask": int8 vector}`` (``mask_dtype``, below).
- ``mask_dtype``: the mask's dtype, ``"int8"`` (the default) or ``"bool"``.
  int8 is what Gymnasium's ``Discrete.sample(mask)`` demands (it asserts the
  dtype), and PettingZoo's ``api_test`` samples that way, as its classic
  games' masks are; but numpy finds the legal indices of a bool mask
  (``np.flatnonzero``) several times faster (about 2 ns an index against
  under 1 ns: some 11 us a step on Café's 4,915 actions, 83 us on the
  41,891 it had before its frame). A loop that reads the mask itself
  (MaskablePPO wants bool anyway) gains by ``"bool"``.
- ``illegal``: what an index the mask forbids does. ``"raise"`` (the
  default: with the mask a policy never meets it, so one that does has a
  bug worth hearing about) raises ValueError and changes nothing;
  ``"penalty"`` ends the match as PettingZoo's classic games do: the
  offender is rewarded ``ILLEGAL_REWARD`` (-1), every other seat 0, every
  agent terminated, ``infos[offender]["illegal"]`` True. Learners that sample
  without the mask (SB3's ``check_env``) need ``"penalty"``. Espresso refuses
  an illegal index in either case, as the table refuses a late play
  ("too slow", below).
- Turn-based games: the agent to act is the one ``state.actors()`` names.
  When several seats may act (Fika's secret picks, Café's action phase) they
  take turns, starting after the last seat that acted; a second picker sees
  nothing of the first pick (the view hides it).
- Espresso is stepped in ticks: each tick every agent gives an action or the
  no-op (the last index), and the actions resolve one by one in a random
  order drawn from the seed, as races resolve at the table; an action that
  is no longer legal when its turn comes (the stack moved) is refused ("too
  slow": ``infos[agent]["refused"]``). The AEC form collects the tick's
  actions agent by agent and resolves them after the last one.
- Rewards come once, at the end: the match result, 1 for a (shared) win and
  -1 for a loss (``state.returns()``); a solo game (Doppio, Café) gives its
  score divided by the best solo rank's threshold (``SOLO_RANKS`` in the
  game's cards: today Doppio 16 beans, Café 24 points), so 1.0 is the best
  rank.
- ``max_cycles`` truncates a match after that many steps of each agent
  (ticks, for Espresso); by default the game's ``DEFAULT_MAX_CYCLES``, far
  above a real match's length, so no policy can make an episode endless.
- ``env.game_state`` is the engine's state of the match (``state.view(seat)``,
  ``state.scores``, ...), for logging and analysis; agents should not read it.
- ``render()`` prints (``render_mode="human"``) or returns (``"ansi"``) the
  view of the agent to act, as JSON.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from coffeetable.engine import Action
from coffeetable.interop.encoding import get_game, result
from coffeetable.interop.pettingzoo_espresso import EspressoParallelEnv, EspressoTickEnv
from coffeetable.interop.pettingzoo_table import (
    DEFAULT_MAX_CYCLES,
    DEFAULT_PLAYERS,
    ILLEGAL_REWARD,
    AECTable,
    Obs,
    action_count,
    check_index,
)

__all__ = [
    "DEFAULT_MAX_CYCLES",
    "DEFAULT_PLAYERS",
    "ILLEGAL_REWARD",
    "CoffeeTableEnv",
    "EspressoParallelEnv",
    "EspressoTickEnv",
    "action_count",
    "env",
    "parallel_env",
]


class CoffeeTableEnv(AECTable):
    """A turn-based game (Doppio, Fika, Café) as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._deal(seed)
        self._steps = 0
        self._last: int | None = None
        self._legal: dict[int, dict[int, Action]] = {}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        assert self.game_state is not None
        actors = self.game_state.actors()
        if len(actors) == 1:  # most steps: one seat may act
            return self.possible_agents[actors[0]]
        if not actors:
            return self.agent_selection
        start = -1 if self._last is None else self._last
        seat = min(actors, key=lambda s: (s - start - 1) % self.table.players)
        return self.possible_agents[seat]

    def legal(self, seat: int) -> dict[int, Action]:
        """index -> action for ``seat`` now, computed once per step (observe and step share it)."""
        legal = self._legal.get(seat)
        if legal is None:
            assert self.game_state is not None
            legal = self._legal[seat] = self.table.legal(self.game_state, seat)
        return legal

    def observe(self, agent: str) -> Obs:
        assert self.game_state is not None
        seat = self.possible_agents.index(agent)
        return {
            "observation": self.table.codec.observe_state(self.game_state, seat),
            "action_mask": self.table.mask(self.legal(seat)),
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game_state is not None
        seat = self.possible_agents.index(agent)
        legal = self.legal(seat)
        index = check_index(action, self.table.num_actions, agent)
        self._cumulative_rewards[agent] = 0.0
        played = legal.get(index)  # (one look: a legal action is never None)
        if played is None:
            if self.table.illegal == "raise":
                raise ValueError(f"{agent}: action {index} is not legal now (see its action_mask)")
            self._penalise(agent, index)
            return
        self.game_state.apply(seat, played)
        self._legal = {}
        self._last = seat
        self._steps += 1
        self._clear_rewards()
        if self.game_state.is_over:
            for other, reward in zip(
                self.possible_agents, result(self.table.name, self.game_state), strict=True
            ):
                self.rewards[other] = reward
                self.terminations[other] = True
        elif self._steps >= self.table.max_cycles * len(self.possible_agents):
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()

    def _penalise(self, agent: str, index: int) -> None:
        """``illegal="penalty"``: the match ends, the offender rewarded ILLEGAL_REWARD."""
        self._clear_rewards()
        self.rewards[agent] = ILLEGAL_REWARD
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {"illegal": True, "action": index}
        self._accumulate_rewards()

    def render(self) -> str | None:
        seat = None if self.game_state is None else self.possible_agents.index(self.agent_selection)
        return self.table.render(self.game_state, seat)


def env(
    name: str,
    players: int | None = None,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    illegal: str = "raise",
    mask_dtype: str = "int8",
    **options: Any,
) -> AECEnv:
    """The AEC environment of game ``name`` (Espresso: stepped in ticks)."""
    kind = EspressoTickEnv if get_game(name).realtime else CoffeeTableEnv
    return kind(
        name,
        players=players,
        max_cycles=max_cycles,
        render_mode=render_mode,
        illegal=illegal,
        mask_dtype=mask_dtype,
        **options,
    )


def parallel_env(
    name: str = "espresso",
    players: int | None = None,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    illegal: str = "raise",
    mask_dtype: str = "int8",
    **options: Any,
) -> ParallelEnv:
    """The Parallel environment of a real-time game (Espresso), stepped in ticks."""
    return EspressoParallelEnv(
        name,
        players=players,
        max_cycles=max_cycles,
        render_mode=render_mode,
        illegal=illegal,
        mask_dtype=mask_dtype,
        **options,
    )
