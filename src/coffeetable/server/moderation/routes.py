"""The moderation API, one router for the app: reports, and the moderators' routes."""

from __future__ import annotations

from fastapi import APIRouter

from coffeetable.server.moderation import api, reports

router = APIRouter()
router.include_router(reports.router)
router.include_router(api.router)
