"""Imitation learning from the open database of matches: a small behaviour-cloning run.

    coffeetable export --game fika --since 2026-12-01 > fika.jsonl
    python examples/imitation_from_export.py fika.jsonl --epochs 5

Every decision of the export becomes a sample (``coffeetable.interop.dataset``: the
seat's observation, its legal-action mask, the index it played); a linear softmax
policy (``coffeetable.interop.linear``) is fitted to them by maximum likelihood, one
gradient step a sample, on four matches in five; it is scored on the fifth (matches it
never saw) by how often its most likely legal action is the one played, beside a
uniformly random legal choice. Needs numpy only (the ``rl`` extra).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from coffeetable.interop.dataset import Sample, Skipped, samples
from coffeetable.interop.linear import LinearPolicy


def accuracy(policy: LinearPolicy, test: list[Sample]) -> float:
    """How often the policy's choice is the action played."""
    if not test:
        return 0.0
    return sum(policy(s.observation, s.mask) == s.action for s in test) / len(test)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", help="a file of `coffeetable export` (JSON lines)")
    parser.add_argument("--game", default=None, help="only this game's matches")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--rate", type=float, default=0.1)
    args = parser.parse_args(argv)
    skipped = Skipped()
    with open(args.export, encoding="utf-8") as lines:
        found = list(samples(lines, game=args.game, skipped=skipped))
    if not found:
        raise SystemExit(f"{args.export}: no samples")
    matches = sorted({s.match_id or 0 for s in found})
    held = set(matches[4::5])  # every fifth match is never trained on
    train = [s for s in found if (s.match_id or 0) not in held]
    test = [s for s in found if (s.match_id or 0) in held] or train
    policy = LinearPolicy(found[0].observation.size, found[0].mask.size, seed=0)
    order = np.random.default_rng(0)
    for _ in range(args.epochs):
        for i in order.permutation(len(train)):
            sample = train[i]
            policy.update(sample.observation, sample.mask, sample.action, 1.0, args.rate)
    random_choice = float(np.mean([1.0 / sample.mask.sum() for sample in test]))
    result = {
        "matches": skipped.matches,
        "samples": len(found),
        "trained_on": len(train),
        "held_out": len(test),
        "accuracy": round(accuracy(policy, test), 4),
        "train_accuracy": round(accuracy(policy, train), 4),
        "random_legal_accuracy": round(random_choice, 4),
        "skipped": {"undo": skipped.undo, "no_index": skipped.no_index},
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
