"""What a request brings: its JSON body (capped) and its bearer token, for app.py and the
routers it includes (social.py)."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from india1853.interfaces.web.accounts import signed_in_seat
from india1853.interfaces.web.entry import ApiError
from india1853.interfaces.web.inputs import parse


async def read_body(request: Request, cap: int) -> Any:
    """The request's JSON body, at most ``cap`` bytes (413 beyond)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > cap:
        raise ApiError(413, f"body: larger than {cap} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > cap:
            raise ApiError(413, f"body: larger than {cap} bytes")
    try:
        return parse(bytes(data))
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
