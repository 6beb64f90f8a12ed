"""The players API, one router for the app: accounts and sessions, then stats."""

from __future__ import annotations

from fastapi import APIRouter

from coffeetable.server.players import auth_api, stats_api

router = APIRouter()
router.include_router(auth_api.router, tags=["players"])
router.include_router(stats_api.router, tags=["players"])
