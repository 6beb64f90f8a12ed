"""The social API, one router for the app: notifications, friends and blocks."""

from __future__ import annotations

from fastapi import APIRouter

from coffeetable.server.social import friends_api, notices_api

router = APIRouter()
router.include_router(notices_api.router)
router.include_router(friends_api.router)
