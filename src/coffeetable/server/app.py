"""The ASGI application and ``serve``.

``create_app`` builds the FastAPI app: the HTTP API under ``/api``, the
WebSockets under ``/ws``, the front end at ``/`` and ``/static/``. Tables are
restored from the database when the app starts. Given a Redis URL, the process
joins the other processes on the same database and Redis (``cluster/``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

import coffeetable
from coffeetable import games
from coffeetable.server import echo, ws
from coffeetable.server.api import docs, exports, openapi, operations, review, tables
from coffeetable.server.api.replays import ReplayCache
from coffeetable.server.api.review_jobs import Reviews
from coffeetable.server.errors import TableError
from coffeetable.server.league import routes as league_routes
from coffeetable.server.league.runner import LeagueRunner
from coffeetable.server.learn import api as learn_api
from coffeetable.server.limits import Limits
from coffeetable.server.lobby.lobby import Lobby
from coffeetable.server.lobby.matchmaking import Matchmaker
from coffeetable.server.lobby.rematch import Rematches
from coffeetable.server.moderation import routes as moderation_routes
from coffeetable.server.players import PlayersService
from coffeetable.server.players import routes as players_routes
from coffeetable.server.security import SecurityHeaders
from coffeetable.server.social import Social
from coffeetable.server.social import routes as social_routes
from coffeetable.server.social.mail import MailConfig, Mailer
from coffeetable.server.tournaments import routes as tournament_routes
from coffeetable.server.tournaments.runner import Runner
from coffeetable.server.tournaments.service import Tournaments
from coffeetable.store import Store, default_database_url

if TYPE_CHECKING:
    from coffeetable.server.cluster.node import Cluster

log = logging.getLogger("coffeetable.server")

WEB_DIR = Path(coffeetable.__file__).parent / "web"

_PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>Coffee Table</title>
<h1>Coffee Table</h1><p>The front end is not installed; the API is at
<a href="/docs">/docs</a>.</p>"""


class RedactTokens(logging.Filter):
    """Hide ``token=...`` in log lines (uvicorn logs WebSocket paths with their query)."""

    PATTERN = re.compile(r"token=[^&\s\"]+")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "token=" in message:
            record.msg, record.args = self.PATTERN.sub("token=***", message), ()
        return True


def _redact_uvicorn_logs() -> None:
    for name in ("uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


#: The environment variable naming the Redis of a site of several processes.
REDIS_ENV = "COFFEETABLE_REDIS_URL"
#: Seconds a process's leases last without renewal (how fast a dead one is replaced).
LEASE_ENV = "COFFEETABLE_LEASE_SECONDS"
#: The prefix of every Redis key and channel (several sites may share one Redis).
PREFIX_ENV = "COFFEETABLE_REDIS_PREFIX"


def create_app(
    database_url: str | None = None,
    *,
    allow_seed: bool = False,
    limits: Limits | None = None,
    redis_url: str | None = None,
    lease_seconds: float | None = None,
) -> FastAPI:
    """The Coffee Table site.

    ``database_url``: a SQLAlchemy URL; default ``$COFFEETABLE_DATABASE_URL``,
    else SQLite in the user's data folder. ``allow_seed`` lets ``POST
    /api/tables`` choose the deal's seed (tests only: the seed reveals every card).
    ``limits``: rates, sizes and quotas (default: ``Limits.from_env()``).
    ``redis_url`` (default ``$COFFEETABLE_REDIS_URL``; none: a single process) makes
    this process one of several sharing the database and this Redis; ``lease_seconds``
    (default ``$COFFEETABLE_LEASE_SECONDS``, else 5) is how long its table leases last.
    """
    limits = limits or Limits.from_env()
    redis_url = redis_url or os.environ.get(REDIS_ENV) or None
    lease = lease_seconds or float(os.environ.get(LEASE_ENV) or 5.0)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        _redact_uvicorn_logs()
        store = Store(database_url or default_database_url())
        lobby = Lobby(store, allow_seed=allow_seed, limits=limits)
        app.state.store = store
        app.state.lobby = lobby
        app.state.social = Social(store, limits, MailConfig.from_env())
        lobby.news = app.state.social.table_news
        if app.state.social.mail is not None:  # no mail server: no mail is ever attempted
            app.state.social.mailer = Mailer(store, app.state.social.mail)
            app.state.social.mailer.start()
        app.state.echo_groups = echo.EchoGroups()
        # What the rooms below the API (moderation) call to act on a table where it runs.
        app.state.run_operation = partial(operations.run, app.state)
        app.state.cluster = None
        throttles = {}
        if redis_url:
            from coffeetable.server.cluster.node import Cluster

            prefix = os.environ.get(PREFIX_ENV) or "coffeetable"
            cluster = Cluster(redis_url, lobby, lease_seconds=lease, prefix=prefix)
            cluster.run_here = lambda name, args: operations.run_here(app.state, name, args)
            throttles = cluster.throttles(limits)
            app.state.cluster = cluster
            await cluster.start()
        app.state.players = PlayersService(store, lobby, limits=limits, **throttles)
        app.state.matchmaker = Matchmaker(lobby)
        app.state.rematches = Rematches(lobby)
        app.state.reviews = Reviews(lobby, limits)
        app.state.replays = ReplayCache(limits.replay_cache)
        if app.state.cluster is not None:
            release = app.state.cluster.release_named
            app.state.reviews.on_forget = lambda table_id: release(f"review:{table_id}")
            app.state.reviews.clients = app.state.cluster.reviewers
        app.state.tournaments = Tournaments(store, limits)
        app.state.tournament_runner = Runner(lobby, app.state.cluster)
        app.state.tournament_runner.notify = app.state.social.add
        app.state.league_runner = LeagueRunner(lobby, app.state.cluster)
        await lobby.restore()
        app.state.tournament_runner.start()
        app.state.league_runner.start()
        try:
            yield
        finally:
            await app.state.tournament_runner.close()
            await app.state.league_runner.close()
            if app.state.social.mailer is not None:
                await app.state.social.mailer.close()
            app.state.matchmaker.close()
            await app.state.reviews.close()
            if app.state.cluster is not None:
                await _leave_cluster(app.state.cluster, lease)  # hands the tables over first
            await lobby.close()
            await store.close()

    app = FastAPI(
        title="Coffee Table",
        version=coffeetable.__version__,
        description="Coffee-themed tabletop games, live: lobby, tables, seats and bots.",
        lifespan=lifespan,
        max_body_size=limits.max_body_bytes,
        docs_url=None,  # served from the package instead of a CDN (api/docs.py)
        redoc_url=None,
    )
    docs.add_docs(app)
    openapi.install(app)

    @app.exception_handler(TableError)
    async def table_error(_request: Request, error: TableError) -> JSONResponse:
        headers = None
        if error.retry_after is not None:  # whole seconds, and never "now"
            headers = {"Retry-After": str(max(1, math.ceil(error.retry_after)))}
        return JSONResponse({"detail": error.detail}, status_code=error.status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code != 405:
            return await http_exception_handler(request, error)
        # Starlette names only the first route that matched the path; name them all.
        allowed = allowed_methods(app, request.url.path)
        headers = {"Allow": ", ".join(allowed)}
        if request.method == "OPTIONS":
            return Response(status_code=204, headers=headers)
        detail = f"{request.method} is not allowed here; use {headers['Allow']}"
        return JSONResponse({"detail": detail}, status_code=405, headers=headers)

    app.state.limits = limits
    app.add_middleware(SecurityHeaders)  # outermost: refusals carry the headers too
    app.include_router(tables.make_router())
    app.include_router(players_routes.router)
    app.include_router(review.router)
    app.include_router(learn_api.router)
    app.include_router(exports.router)
    app.include_router(tournament_routes.router)
    app.include_router(league_routes.router)
    app.include_router(social_routes.router)
    app.include_router(moderation_routes.router)
    app.include_router(ws.router)
    app.include_router(echo.router)

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def index() -> Response:
        page = WEB_DIR / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse(_PLACEHOLDER)

    WEB_DIR.mkdir(parents=True, exist_ok=True)
    # Each game's board is served from the game's own folder, at the URL the pages use
    # (/static/games/<name>/...); a game that ships none falls through to web/ (404 there:
    # the page shows the generic board).
    for name in games.names():
        try:
            board = games.get(name).web_dir()
        except Exception:  # a game that does not load is left out (as GET /api/games does)
            continue
        if board is not None:
            app.mount(f"/static/games/{name}", StaticFiles(directory=board), name=f"game-{name}")
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


async def _leave_cluster(cluster: Cluster, lease_seconds: float) -> None:
    """Hand the tables over and leave, within a bound: a Redis that stops answering must
    not keep the process from exiting (its leases expire and other processes adopt the
    tables)."""
    bound = 2 * lease_seconds + 5
    try:
        await asyncio.wait_for(cluster.close(), bound)
    except TimeoutError:
        log.warning("cluster: leaving took over %g s; stopping anyway", bound)


def allowed_methods(app: FastAPI, path: str) -> list[str]:
    """The HTTP methods some route answers at ``path``, with OPTIONS (for ``Allow``)."""
    methods = {"OPTIONS"}
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"):
        scope = {"type": "http", "path": path, "method": method, "root_path": ""}
        for route in app.routes:
            if route.matches(scope)[0] is Match.FULL:
                # A mount (the static files) matches every method but serves GET and HEAD.
                if not isinstance(route, Mount) or method in ("GET", "HEAD"):
                    methods.add(method)
                break
    return sorted(methods)


#: Container allocations (net of frees) between two young collections (default 700).
GC_YOUNG_THRESHOLD = 10_000


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str | None = None,
    redis_url: str | None = None,
) -> None:
    """Run the site with uvicorn until interrupted (``coffeetable serve``); with
    ``redis_url``, as one of several processes (``docs/deploy.md``)."""
    import uvicorn

    url = database_url or default_database_url()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s:     %(message)s")
    # Alembic says which migrations run; how its plugins load is noise.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    log.info("database: %s", url)
    log.info("Coffee Table on http://%s:%d/", host, port)
    # No permessage-deflate: our frames are small, and compressing them cost more CPU
    # than sending them (issue 14); a 1 MiB cap on a frame.
    redis_url = redis_url or os.environ.get(REDIS_ENV) or None
    if redis_url:
        log.info("cluster: Redis at %s", _without_password(redis_url))
    app = create_app(url, redis_url=redis_url)
    _tune_gc()
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="info",
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,
    )


def _tune_gc() -> None:
    """Fewer pauses of the garbage collector on a serving process (issue 14's p99).

    What start-up imported and built lives as long as the process: frozen, the collector
    never walks it again (two thirds of the objects it walked). An action allocates many
    short-lived dicts (views, messages) that reference counting frees at once, yet each
    counts towards a collection: at the default threshold (700) a young collection ran
    every few actions, and the older generations' collections that follow paused every
    table for 4-9 ms, a full one for 84 ms (docs/benchmarks.md, "Server": measured both ways).
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, 20, 20)


def _without_password(url: str) -> str:
    """``url`` fit for a log line."""
    return re.sub(r"//[^@/]*@", "//***@", url)
