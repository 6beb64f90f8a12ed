#!/usr/bin/env bash
# Refresh requirements.lock from pyproject.toml, then run the whole suite on what it locked.
#   bash scripts/update-lock.sh          every package at its newest version that pyproject allows
#   bash scripts/update-lock.sh --keep   keep the locked versions; only add or drop what pyproject
#                                        changed (after adding a dependency, say)
# Commit the lock only when the suite passes (docs/development.md).
set -euo pipefail
cd "$(dirname "$0")/.."

upgrade="--upgrade"
if [ "${1:-}" = "--keep" ]; then
    upgrade=""
    shift
fi
python3 -m pip install --quiet --disable-pip-version-check 'uv>=0.5'
# Every extra the tests use; `train` (torch) is left to each machine's own build (docs/research.md).
python3 -m uv pip compile pyproject.toml $upgrade --universal --python-version 3.11 \
    --extra test --extra dev --extra client --extra postgres --extra cluster --extra rl \
    --custom-compile-command "bash scripts/update-lock.sh" \
    --output-file requirements.lock
bash scripts/test.sh "$@"
