"""Train sb3-contrib's MaskablePPO on a Coffee Table game against a bot, then evaluate it.

    pip install -e '.[rl,train]'
    python examples/train_maskable_ppo.py --game fika --opponent random --steps 50000
    python examples/train_maskable_ppo.py --game doppio --opponent greedy --steps 100000 \\
        --save /tmp/doppio_greedy.zip --json

The shape of PettingZoo's own action-mask tutorial (MaskablePPO with the
legal-action mask), on ``coffeetable.interop.gym.OpponentEnv``: the
PettingZoo environment seen from one seat, the other seat played by the
opponent bot, the learner's seat drawn anew each match. One process, one
torch thread, a fixed seed: the budget is ``--steps`` learner steps.

The trained policy is then played deterministically (the most likely legal
action) for ``--games`` matches against the same opponent, and so is a
uniformly random legal policy for comparison; each win rate comes with a 95%
Wilson interval. The figures in docs/research.md came from these commands.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (a draw counts half)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def evaluate(
    game: str,
    opponent: str,
    policy: Callable[[np.ndarray, np.ndarray], int],
    games: int,
    seed: int,
    max_cycles: int | None,
) -> dict[str, Any]:
    """Play ``games`` matches of ``policy`` against ``opponent``; wins, draws, rate, interval."""
    from coffeetable.interop.gym import OpponentEnv

    env = OpponentEnv(game, opponent=opponent, max_cycles=max_cycles)
    wins = draws = truncated = 0
    rewards = []
    observation, _ = env.reset(seed=seed)
    for _ in range(games):
        total = 0.0
        while True:
            action = policy(observation, env.action_masks())
            observation, reward, term, trunc, _ = env.step(action)
            total += reward
            if term or trunc:
                break
        truncated += bool(trunc)
        wins += total > 0
        draws += total == 0 and not trunc
        rewards.append(total)
        observation, _ = env.reset()
    score = wins + draws / 2
    low, high = wilson(score, games)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "truncated": truncated,
        "win_rate": score / games,
        "interval_95": [round(low, 3), round(high, 3)],
        "mean_reward": float(np.mean(rewards)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("fika", "doppio"), default="fika")
    parser.add_argument("--opponent", default="random", help="a bot name: random, greedy, ...")
    parser.add_argument("--steps", type=int, default=50_000, help="learner steps to train")
    parser.add_argument("--games", type=int, default=200, help="evaluation matches")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--max-cycles", type=int, default=None, help="length cap (default: the game's)"
    )
    parser.add_argument("--save", default=None, help="where to save the trained model (.zip)")
    parser.add_argument("--load", default=None, help="evaluate this saved model, no training")
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the random policy's evaluation"
    )
    parser.add_argument(
        "--sample", action="store_true", help="evaluate sampling the policy, not its best action"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO

    from coffeetable.interop.gym import OpponentEnv

    torch.set_num_threads(1)
    env = OpponentEnv(args.game, opponent=args.opponent, max_cycles=args.max_cycles)
    started = time.perf_counter()
    if args.load:
        model = MaskablePPO.load(args.load, env=env, device="cpu")
    else:
        model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, device="cpu")
        model.learn(total_timesteps=args.steps)
    trained = time.perf_counter() - started
    if args.save and not args.load:
        model.save(args.save)

    def trained_policy(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=not args.sample)
        return int(action)

    rng = random.Random(args.seed)

    def random_policy(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    eval_seed = 10_000 + args.seed  # matches never met in training
    started = time.perf_counter()
    result = {
        "game": args.game,
        "opponent": args.opponent,
        "steps": None if args.load else args.steps,
        "loaded": args.load,
        "sampled": args.sample,
        "seed": args.seed,
        "train_seconds": round(trained, 1),
        "trained": evaluate(
            args.game, args.opponent, trained_policy, args.games, eval_seed, args.max_cycles
        ),
    }
    if not args.no_baseline:
        result["random"] = evaluate(
            args.game, args.opponent, random_policy, args.games, eval_seed, args.max_cycles
        )
    result["eval_seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(result))
    else:
        for who in ("trained", "random")[: 1 if args.no_baseline else 2]:
            r = result[who]
            low, high = r["interval_95"]
            print(
                f"{args.game} vs {args.opponent}, {who} policy: {r['win_rate']:.1%} "
                f"({low:.0%}-{high:.0%}) over {r['games']} games, {r['truncated']} truncated"
            )
        print(f"trained {args.steps} steps in {trained:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
