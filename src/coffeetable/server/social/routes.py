"""The social API, one router for the app: notifications, friends and blocks, mail."""

from __future__ import annotations

from fastapi import APIRouter

from coffeetable.server.social import friends_api, mail_api, notices_api

router = APIRouter()
router.include_router(notices_api.router)
router.include_router(friends_api.router)
router.include_router(mail_api.router)
