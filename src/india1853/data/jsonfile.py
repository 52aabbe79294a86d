"""Reading JSON from files and arguments the user gives (logs, save files, positions, routes,
moves), so that hostile input gets one clear line and costs little.

A file larger than :data:`MAX_FILE_BYTES` is refused before it is read (a whole game log is
about 100 bytes an action: a few hundred kilobytes), and a document nested deeper than
:data:`MAX_DEPTH` (the project's files nest at most six levels) is refused before anything
walks it, so that no reader meets Python's recursion limit.  Messages never quote the input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from india1853.errors import InputError

MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_DEPTH = 100


def read_json_file(path: str | Path, name: str) -> Any:
    """The JSON document in ``path``; ``name`` starts every error message (the file, as the
    caller names it)."""
    target = Path(path)
    try:
        with target.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(f"{name}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB; not read")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    return parse_json(text, name)


def parse_json(text: str, name: str) -> Any:
    """The JSON document ``text`` (from a file or an argument called ``name``)."""
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"{name}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise InputError(f"{name}: nested more than {MAX_DEPTH} levels deep") from None
    if _depth_exceeds(data, MAX_DEPTH):
        raise InputError(f"{name}: nested more than {MAX_DEPTH} levels deep")
    return data


def _depth_exceeds(data: Any, limit: int) -> bool:
    """Whether lists and objects nest more than ``limit`` levels (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, dict | list))
    return False
