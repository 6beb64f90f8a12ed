#!/usr/bin/env bash
# Set up and run the whole test suite: the README's second command, and what CI runs.
# As root with apt-get, it installs Debian's Chromium, PostgreSQL and Redis and starts the
# two servers on loopback (scripts/services.sh); without them those tests skip and say why.
# Everything installs at the versions of requirements.lock (scripts/update-lock.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/services.sh
python3 -m pip install --quiet --disable-pip-version-check \
    -c requirements.lock -e '.[test,dev,client,rl,postgres,cluster]'
# Tests run in parallel (pytest-xdist), each server, database and browser context its own;
# COFFEETABLE_TEST_WORKERS sets how many processes (0: none, all in this one).
python3 -m pytest -n "${COFFEETABLE_TEST_WORKERS:-auto}" "$@"
