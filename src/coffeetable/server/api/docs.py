"""The interactive API docs, ``/docs`` (Swagger UI), served whole from this site: they
work offline and under a policy with no inline script.

FastAPI's own page loads its script from a CDN and starts it with an inline script.
Here the page is static HTML: Swagger UI's files come from the ``fastapi-offline``
package (which ships swagger-ui-dist's; mounted at ``/docs/assets``), and it is
started by ``web/docs/swagger-init.js``. Without that package the page says how to
get it, and the schema is still at ``/openapi.json``. There is no ``/redoc``: ReDoc
loads its logo from its own CDN whatever it is told.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

import coffeetable


def _assets_dir() -> Path | None:
    """Where ``fastapi-offline`` keeps swagger-ui-dist's files (None: not installed)."""
    try:
        import fastapi_offline  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover - a site installed without it
        return None
    return Path(fastapi_offline.__file__).parent / "static"


#: Where the pages load their files from (under /docs: the docs pages' policy).
ASSETS = "/docs/assets"
_INIT = Path(coffeetable.__file__).parent / "web" / "docs" / "swagger-init.js"

_SWAGGER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{title} - API</title>
<link rel="icon" href="{assets}/favicon.png">
<link rel="stylesheet" href="{assets}/swagger-ui.css">
</head><body>
<div id="swagger-ui" data-openapi="{openapi}"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-init.js"></script>
</body></html>
"""


_MISSING = """<!doctype html><meta charset="utf-8"><title>{title} - API</title>
<h1>{title} API</h1><p>The interactive docs need the <code>fastapi-offline</code> package
(<code>pip install fastapi-offline</code>); the schema is at
<a href="{openapi}">{openapi}</a>.</p>
"""


def add_docs(app: FastAPI) -> None:
    """Serve ``/docs`` and its files (the app is made with ``docs_url=None`` and
    ``redoc_url=None``)."""
    openapi = app.openapi_url or "/openapi.json"
    fill = {"title": app.title, "assets": ASSETS, "openapi": openapi}
    static = _assets_dir()
    if static is None:
        swagger = _MISSING.format(**fill)
    else:
        swagger = _SWAGGER.format(**fill)
        app.mount(ASSETS, StaticFiles(directory=static), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def swagger_page() -> HTMLResponse:
        return HTMLResponse(swagger)

    @app.get("/docs/swagger-init.js", include_in_schema=False)
    def swagger_init() -> FileResponse:
        return FileResponse(_INIT, media_type="text/javascript")
