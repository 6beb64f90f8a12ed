#!/usr/bin/env bash
# Set up and run the whole test suite: the README's second command, and what CI runs.
# Installs Debian's Chromium for the browser tests when it can (as root, with apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "Installing Debian's chromium for the browser tests..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

python3 -m pip install --quiet --disable-pip-version-check -e '.[test,dev,rl]'
python3 -m pytest "$@"
