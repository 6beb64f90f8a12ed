"""Many copies of one seat's game at once: Gymnasium's vector environments.

``vector_env("fika", 8, opponent="quick")`` is a ``gymnasium.vector`` environment
(``SyncVectorEnv``, or ``AsyncVectorEnv`` with ``asynchronous=True``: one process a
copy) of ``OpponentEnv`` with the mask in the observation::

    envs = vector_env("cafe", 8, opponent="quick", seed=0)
    observations, infos = envs.reset(seed=0)
    masks = observations["action_mask"]            # (8, actions), int8

Every observation it returns carries a valid mask, the step that ends a match
included: it autoresets in Gymnasium's ``SAME_STEP`` mode, so a copy whose match
ended returns the first observation (and mask) of its next match at once, and the
last one of the old match goes in ``infos["final_obs"]`` (its reward and
``terminated``/``truncated`` are the old match's). In Gymnasium's default
``NEXT_STEP`` mode a finished match's observation would be returned with an empty
mask (nothing is legal once a match is over), and a masked sampler has nothing
to choose from there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv

from coffeetable.interop.gym import OpponentEnv, Policy


def _maker(name: str, opponent: str | Policy, kwargs: dict[str, Any]) -> Callable[[], OpponentEnv]:
    def make() -> OpponentEnv:
        return OpponentEnv(name, opponent=opponent, mask_in_observation=True, **kwargs)

    return make


def vector_env(
    name: str,
    num_envs: int,
    opponent: str | Policy = "random",
    asynchronous: bool = False,
    seed: int | None = None,
    **kwargs: Any,
) -> VectorEnv:
    """``num_envs`` copies of ``OpponentEnv(name, opponent, mask_in_observation=True,
    **kwargs)`` in one vector environment (``SAME_STEP`` autoreset, above); reset
    with ``seed`` if one is given."""
    if num_envs < 1:
        raise ValueError(f"num_envs is a whole number of at least 1, not {num_envs}")
    makers = [_maker(name, opponent, kwargs) for _ in range(num_envs)]
    envs: VectorEnv
    if asynchronous:
        envs = AsyncVectorEnv(makers, autoreset_mode=AutoresetMode.SAME_STEP)
    else:
        envs = SyncVectorEnv(makers, autoreset_mode=AutoresetMode.SAME_STEP)
    if seed is not None:
        envs.reset(seed=seed)
    return envs


def sample_masked(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal index a row of ``masks`` (uniformly): a random policy for the copies."""
    actions = np.empty(len(masks), dtype=np.int64)
    for row, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        if not len(legal):
            raise ValueError(f"copy {row} has no legal action in its mask")
        actions[row] = rng.choice(legal)
    return actions


__all__ = ["sample_masked", "vector_env"]
