"""The players API, one router for the app: accounts and sessions, stats, bot accounts."""

from __future__ import annotations

from fastapi import APIRouter

from coffeetable.server.players import auth_api, bots_api, stats_api

router = APIRouter()
router.include_router(auth_api.router, tags=["players"])
router.include_router(stats_api.router, tags=["players"])
router.include_router(bots_api.router)
