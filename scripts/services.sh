# Start the services the tests use, when this machine can: PostgreSQL and Redis from
# Debian's packages, on loopback. Sourced by scripts/test.sh; exports the URLs the tests
# read (COFFEETABLE_TEST_POSTGRES_URL, COFFEETABLE_TEST_REDIS_URL). A test whose service
# is missing skips with the reason, unless COFFEETABLE_REQUIRE_SERVICES is set (CI).

can_install() { command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; }

missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v pg_ctlcluster >/dev/null 2>&1 || missing="$missing postgresql"
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
if [ -n "$missing" ] && can_install; then
    echo "Installing Debian's$missing for the tests..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

# PostgreSQL: the Debian cluster, a role and a database for the tests.
if [ -z "${COFFEETABLE_TEST_POSTGRES_URL:-}" ] && command -v pg_ctlcluster >/dev/null 2>&1 \
        && [ "$(id -u)" = 0 ]; then
    version=$(ls /etc/postgresql 2>/dev/null | sort -n | tail -n 1)
    if [ -n "$version" ]; then
        pg_ctlcluster "$version" main start >/dev/null 2>&1 || true
        for _ in $(seq 1 30); do
            su postgres -c "psql -qtAc 'select 1'" >/dev/null 2>&1 && break
            sleep 0.5
        done
        su postgres -c "psql -qtAc \"select 1 from pg_roles where rolname = 'coffeetable'\"" \
            | grep -q 1 || su postgres -c "psql -qc \"create role coffeetable login password 'coffeetable' createdb\""
        # The cluster tests make a database of their own (an older role may lack the right).
        su postgres -c "psql -qc 'alter role coffeetable createdb'" >/dev/null
        su postgres -c "psql -qtAc \"select 1 from pg_database where datname = 'coffeetable_test'\"" \
            | grep -q 1 || su postgres -c "createdb -O coffeetable coffeetable_test"
        port=$(su postgres -c "psql -qtAc 'show port'" 2>/dev/null)
        if [ -n "$port" ]; then
            export COFFEETABLE_TEST_POSTGRES_URL="postgresql+psycopg://coffeetable:coffeetable@127.0.0.1:$port/coffeetable_test"
        fi
    fi
fi

# Redis: a server of our own on a loopback port, no persistence.
if [ -z "${COFFEETABLE_TEST_REDIS_URL:-}" ] && command -v redis-server >/dev/null 2>&1; then
    redis_port=6391
    if ! redis-cli -p "$redis_port" ping >/dev/null 2>&1; then
        redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no \
            --daemonize yes >/dev/null
        for _ in $(seq 1 20); do
            redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
            sleep 0.25
        done
    fi
    if redis-cli -p "$redis_port" ping >/dev/null 2>&1; then
        export COFFEETABLE_TEST_REDIS_URL="redis://127.0.0.1:$redis_port/0"
    fi
fi
