#!/usr/bin/env bash
# Set up and run the whole test suite: the README's second command, and what CI runs.
# As root with apt-get, it installs Debian's Chromium, PostgreSQL and Redis and starts the
# two servers on loopback (scripts/services.sh); without them those tests skip and say why.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/services.sh
python3 -m pip install --quiet --disable-pip-version-check -e '.[test,dev,rl,postgres,cluster]'
python3 -m pytest "$@"
