"""``/docs``: the interactive API page (Swagger UI) with no content from another origin.

FastAPI's own page loads Swagger UI from a CDN and starts it with an inline script; the
Content Security Policy (security.py) forbids both, which left the page blank.  Here the
assets come from the ``fastapi-offline`` package (Swagger UI's files, shipped in the wheel)
under ``/docs-assets/``, and the page (``static/docs.html``) starts them with a script of this
server (``static/js/docs.js``).
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).parent / "static"


def install(app: FastAPI, static: Path) -> None:
    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        return FileResponse(static / "docs.html", headers={"Cache-Control": "no-cache"})

    app.mount("/docs-assets", StaticFiles(directory=ASSETS, check_dir=False),
              name="docs-assets")
