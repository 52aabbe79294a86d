"""Request bodies as JSON, refused with one line (``ValueError``) when malformed or hostile.

Python's parser alone lets through what later breaks the server: an integer literal of more
than 4,300 digits (``int`` refuses to convert it: a ``ValueError`` that is not a
``JSONDecodeError``), nesting deep enough to exhaust the recursion limit, ``NaN`` and
``Infinity`` (no database's JSON holds them), and lone surrogates written as ``\\udXXX``
escapes (no UTF-8 response can echo them).  Each is a malformed body here: the route
answers 422 naming it.
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any

MAX_DEPTH = 64  # a log file nests about 6 deep
MAX_INT_BITS = 256  # a seed has 128 bits; nothing in a game comes near
# A surrogate can only come from a \u escape in UTF-8 input: no such escape, no search.
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _check(value: Any, surrogates: bool) -> None:
    """Depth, integer size, finite numbers and (if asked) encodable strings, iteratively."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > MAX_DEPTH:
                raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
            for key, inner in item.items():
                if surrogates:
                    _encodable(key)
                stack.append((inner, depth + 1))
        elif isinstance(item, list):
            if depth > MAX_DEPTH:
                raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
            stack.extend((inner, depth + 1) for inner in item)
        elif isinstance(item, str):
            if surrogates:
                _encodable(item)
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if item.bit_length() > MAX_INT_BITS:
                raise ValueError(f"an integer larger than {MAX_INT_BITS} bits")
        elif isinstance(item, float) and not math.isfinite(item):
            raise ValueError("a number too large for a float")


def _encodable(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        raise ValueError(f"a string holds a lone surrogate (\\u{code:04x})") from None


def parse(data: bytes) -> Any:
    """The body's JSON value; ``ValueError`` with one line naming what is wrong."""
    try:
        value = json.loads(data, parse_constant=_constant)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"not valid JSON ({exc})") from None
    except ValueError as exc:  # int's limit of digits, or NaN / Infinity (_constant)
        if "integer string conversion" in str(exc):
            raise ValueError(f"an integer of more than {sys.get_int_max_str_digits()} "
                             "digits") from None
        raise
    _check(value, surrogates=SURROGATE_ESCAPE.search(data) is not None)
    return value
