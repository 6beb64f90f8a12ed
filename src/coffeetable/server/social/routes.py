"""The social API, one router for the app: notifications (and friends, blocks, mail)."""

from __future__ import annotations

from fastapi import APIRouter

from coffeetable.server.social import notices_api

router = APIRouter()
router.include_router(notices_api.router)
