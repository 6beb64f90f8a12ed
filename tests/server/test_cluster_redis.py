"""The Redis URL of a site of several processes (issue 27, finding 13): whoever can publish
to its Redis can act for any account, so a deployment reaches it over TLS with a password
or an ACL user (docs/deploy.md). The URL's scheme, user, password and TLS options reach
the connection pool as given; a password never reaches the log."""

from __future__ import annotations

import asyncio

import redis.asyncio

from coffeetable.server.app import _without_password
from coffeetable.server.cluster.node import REDIS_CONNECTIONS, redis_pool
from tests.conftest import service_url


def test_a_rediss_url_with_a_user_and_password_reaches_the_pool() -> None:
    url = "rediss://coffeetable:s3cr%40t@redis.internal:6380/2?ssl_ca_certs=/etc/redis/ca.pem"
    pool = redis_pool(url, 5.0)
    assert issubclass(pool.connection_class, redis.asyncio.SSLConnection)  # TLS
    kwargs = pool.connection_kwargs
    assert (kwargs["username"], kwargs["password"]) == ("coffeetable", "s3cr@t")
    assert (kwargs["host"], kwargs["port"], kwargs["db"]) == ("redis.internal", 6380, 2)
    assert kwargs["ssl_ca_certs"] == "/etc/redis/ca.pem"
    assert pool.max_connections == REDIS_CONNECTIONS
    assert _without_password(url) == (
        "rediss://***@redis.internal:6380/2?ssl_ca_certs=/etc/redis/ca.pem"
    )
    only_password = redis_pool("redis://:hunter2@127.0.0.1:6379/0", 5.0)
    assert only_password.connection_kwargs["password"] == "hunter2"
    assert not issubclass(only_password.connection_class, redis.asyncio.SSLConnection)


def test_a_plain_url_connects_to_the_test_redis() -> None:
    url = service_url("COFFEETABLE_TEST_REDIS_URL", "Redis")

    async def ping() -> bool:
        client = redis.asyncio.Redis(connection_pool=redis_pool(url, 5.0))
        try:
            return bool(await client.ping())
        finally:
            await client.aclose()

    assert asyncio.run(ping())
