"""The OpenAPI schema as the server really answers: every error is ``{"detail": "one line"}``.

FastAPI documents its own validation errors as a list of objects; this server answers every
refusal (400, 401, 403, 404, 409, 413, 422, 429) with one line of text naming the field or the rule,
so the schema says so (and that the ``.svg`` routes answer SVG, the event stream SSE), and
schema-based fuzzing (tests/web/test_fuzz_api.py) holds the server
to it.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

ERROR = {"type": "object", "required": ["detail"], "additionalProperties": False,
         "properties": {"detail": {"type": "string"}}}
ERROR_STATUSES = {"400": "a token in a URL, or a ticket and a token at once (event stream)",
                  "401": "no token, or not a token of this game (or a stream ticket refused)",
                  "403": "the token's seat may not do this",
                  "404": "no such game", "409": "stale action id",
                  "413": "body too large", "422": "malformed or illegal (field or rule named)",
                  "429": "this seat's or address's budget of requests is spent "
                         "(Retry-After)",
                  "500": "a fault of the server (its log has the details)"}


def _media(path: str) -> str | None:
    """The media type of a route that answers other than JSON (None: JSON)."""
    if path.endswith(".svg"):
        return "image/svg+xml"
    if path.endswith("/events"):
        return "text/event-stream"
    return None


@cache
def _model_schema_json(model: type[BaseModel]) -> str:
    return json.dumps(model.model_json_schema())


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model.model_json_schema()``, made once a process (a fresh copy each call): each
    application built (each server start) documents the same bodies."""
    schema: dict[str, Any] = json.loads(_model_schema_json(model))
    return schema


def install(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version,
                                 description=app.description, routes=app.routes)
            schemas = schema.setdefault("components", {}).setdefault("schemas", {})
            schemas["HTTPValidationError"] = ERROR
            schemas.pop("ValidationError", None)
            ref = {"$ref": "#/components/schemas/HTTPValidationError"}
            for path, methods in schema.get("paths", {}).items():
                for operation in methods.values():
                    responses = operation.setdefault("responses", {})
                    media = _media(path)
                    if media is not None and "200" in responses:
                        responses["200"]["content"] = {media: {"schema": {"type": "string"}}}
                    for status, text in ERROR_STATUSES.items():
                        responses[status] = {"description": text,
                                             "content": {"application/json": {"schema": ref}}}
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
