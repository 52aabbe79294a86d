"""Schemathesis against the server's OpenAPI schema (a real server on loopback): whatever a
generated request holds, no 500 and every response conforms to the schema."""

from __future__ import annotations

import gzip
import itertools
import json
import os
import sys
import tempfile
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.internal import charmap
from webclient import client, create

# schemathesis (and requests, urllib3, jsonschema, OpenTelemetry, which it imports: some 250
# modules) is imported by the fixture, not here: each pytest-xdist worker imports every test
# file to collect it, and only the worker that runs this file needs it (issue 20; the `startup`
# section of docs/test-speed.md).

SEED_GAME: dict[str, str] = {}
TURNS = itertools.count()  # every other case on the real game


def _known_utf8_intervals() -> None:
    """Hypothesis's table of the characters the ``utf-8`` codec encodes (and decodes back),
    which schemathesis asks for: every code point but the surrogates, as UTF-8 defines it.
    Without the table in ``.hypothesis/`` (a fresh clone) Hypothesis finds it by encoding
    each of the 1,114,112 code points, some 3.4 CPU-s of this test (issue 20); written here
    as Hypothesis writes it (a gzipped JSON pair: the encodable intervals, the ones that do
    not decode back) where it is missing."""
    path = charmap.charmap_file("codec-v2-utf-8")
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    table = [[[0, 0xD7FF], [0xE000, sys.maxunicode]], []]
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as out, \
            gzip.GzipFile(fileobj=out, mode="wb", mtime=1) as packed:
        packed.write(json.dumps(table).encode())
    os.replace(out.name, path)


@pytest.fixture(scope="module")
def api_schema(server_url: str) -> Any:
    _known_utf8_intervals()
    with client(server_url) as c:
        made = create(c, seed=3)
    SEED_GAME.update(id=made["id"], token=made["tokens"]["Ann"])
    import schemathesis

    return schemathesis.openapi.from_url(f"{server_url}/openapi.json")


@pytest.fixture(scope="module")
def session() -> Any:
    """One keep-alive session for every case: without it schemathesis makes a session and a
    new connection per request (some 600 of each, both sides' CPU). Its own session class
    drops the cookies after each request, and the request sent is the same (schemathesis
    empties the session's headers while it sends)."""
    from schemathesis.transport.requests import ManagedCookiesSession

    return ManagedCookiesSession()


def check(case: Any, session: Any) -> None:
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
    )

    # Half the cases on a real game (with a real token), so that the routes get past the 404.
    if case.path_parameters and "game_id" in case.path_parameters \
            and next(TURNS) % 2 == 0:
        case.path_parameters["game_id"] = SEED_GAME["id"]
        case.headers = {**(case.headers or {}),
                        "Authorization": f"Bearer {SEED_GAME['token']}"}
    response = case.call(session=session, timeout=60)
    assert response.status_code < 500, (case.method, case.path, response.text[:300])
    assert "Traceback" not in response.text
    content_type = response.headers.get("content-type") or [""]
    if content_type[0].startswith("application/json"):
        body = response.json()
        detail = body.get("detail") if isinstance(body, dict) else None
        if isinstance(detail, str):
            assert "\n" not in detail
    case.validate_response(response, checks=[content_type_conformance,
                                              response_schema_conformance])


# Requests drawn per operation: a bounded run in `make test`, a long one in `make soak`.
EXAMPLES = [pytest.param(20, id="short"),
            pytest.param(200, id="soak", marks=pytest.mark.soak)]


@pytest.mark.parametrize("examples", EXAMPLES)
def test_no_request_makes_a_server_error(api_schema: Any, session: Any, examples: int) -> None:
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 8
    for operation in operations:
        if operation.path.endswith("/events"):
            continue  # an endless stream: its errors are tested in test_api_events.py

        @given(case=operation.as_strategy())
        @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def run(case: Any) -> None:
            check(case, session)

        run()
