"""What a request brings: its JSON body (capped) and its bearer token, for app.py and the
routers it includes (social.py)."""

from __future__ import annotations

from typing import Any, TypeVar

from fastapi import Request
from pydantic import BaseModel, ValidationError

from india1853.interfaces.web.accounts import signed_in_seat
from india1853.interfaces.web.entry import ApiError
from india1853.interfaces.web.inputs import parse


async def _bytes(request: Request, cap: int) -> bytes:
    """The request's body, at most ``cap`` bytes (413 beyond, before reading when declared)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > cap:
        raise ApiError(413, f"body: larger than {cap} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > cap:
            raise ApiError(413, f"body: larger than {cap} bytes")
    return bytes(data)


async def read_body(request: Request, cap: int) -> Any:
    """The request's JSON body, at most ``cap`` bytes (413 beyond)."""
    data = await _bytes(request, cap)
    try:
        return parse(data)
    except ValueError as exc:  # inputs.py: one line naming what is wrong
        raise ApiError(422, f"body: {exc}") from None


def bearer(request: Request) -> str | None:
    """The ``Authorization: Bearer`` token (401 if malformed); without the header, the
    signed-in account's seat in the request's game, if any (accounts.py), else None."""
    header = request.headers.get("authorization")
    if header is None:
        return signed_in_seat(request)
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "Authorization: must be 'Bearer TOKEN'")
    return token.strip()


M = TypeVar("M", bound=BaseModel)


async def read_model(request: Request, model: type[M], cap: int,
                     empty: Any = None) -> M:
    """The request's JSON body as ``model``: 413 beyond ``cap`` bytes, 422 naming the field
    (``empty``: what an empty body stands for; None: an empty body is refused as any bad
    JSON)."""
    data = await _bytes(request, cap)
    try:
        raw = parse(data) if data or empty is None else empty
    except ValueError as exc:
        raise ApiError(422, f"body: {exc}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err.get("loc", ())) or "body"
        raise ApiError(422, f"{loc}: {err.get('msg', 'invalid')}") from None
