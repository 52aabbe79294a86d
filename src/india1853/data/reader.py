"""One generic reader: a data file's JSON into the model's dataclasses, driven by their fields.

A record is a JSON object whose keys are the dataclass's field names.  A field without a
default must be there (``null`` allowed only where its type admits None; a field whose
``metadata`` says ``required`` must be there too); a field with a default may be left out or
``null``.  Values are checked against the field's type: ``int``, ``float``, ``str``, ``bool``,
a ``Literal`` (one of its values), ``X | None``, ``tuple[X, ...]`` and ``tuple[X, Y]`` (JSON
lists), ``dict[str, X]`` (a JSON object) and nested dataclasses.  Any other key is an error.

Where the JSON form differs from the model (a path as ``[a, b, gauge]``, sides by name, rows
of a table keyed by a field), a :class:`Reader` takes a *form* for that class or field; what
the types cannot say (a reference to another file, a sum that must add up) a *check* says,
run on each record as it is read.  Every error names the file and the field, e.g.
``second/board.json: hexes[12].kind: expected one of plain, town, ...``.
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from functools import cache
from typing import Any, Literal, TypeVar, Union, cast, get_args, get_origin, get_type_hints

from india1853.errors import DataError

T = TypeVar("T")


class Ctx:
    """Where we are while reading: the file and a path of fields, for error messages."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.path: list[str] = []

    def error(self, message: str) -> DataError:
        where = ".".join(self.path).replace(".[", "[")
        return DataError(f"{self.file}: {where or '(top)'}: {message}")

    @contextmanager
    def at(self, name: str | int) -> Iterator[None]:
        self.path.append(f"[{name}]" if isinstance(name, int) else name)
        try:
            yield
        finally:
            self.path.pop()


_TYPE_NAMES: dict[type, str] = {
    int: "an integer",
    str: "a string",
    bool: "true/false",
    list: "a list",
    dict: "an object",
    float: "a number",
}


def type_name(t: type | tuple[type, ...]) -> str:
    if isinstance(t, tuple):
        return " or ".join(_TYPE_NAMES.get(x, x.__name__) for x in t)
    return _TYPE_NAMES.get(t, t.__name__)


def is_a(value: Any, t: type | tuple[type, ...]) -> bool:
    """``isinstance``, except that a JSON true is never a number (bool is an int in Python)."""
    if isinstance(value, bool):
        return t is bool or (isinstance(t, tuple) and bool in t)
    if t is float:
        return isinstance(value, (int, float))
    return isinstance(value, t)


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return get_type_hints(cls)


def _not_none(hint: Any) -> Any:
    """``X | None`` as ``X``."""
    if get_origin(hint) in (Union, types.UnionType):
        kinds = [a for a in get_args(hint) if a is not type(None)]
        if len(kinds) == 1:
            return kinds[0]
    return hint


# A form reads one value (a record or a field) whose JSON differs from the model's shape; a
# check looks at a record once it is read (with the context still at that record).
Form = Callable[["Reader", Any], Any]
Check = Callable[[Ctx, Any], None]


@dataclass
class Reader:
    """Reads the values of one file (``ctx``) into the model's types."""

    ctx: Ctx
    forms: Mapping[type | tuple[type, str], Form] = field(default_factory=dict)
    checks: Mapping[type, Check] = field(default_factory=dict)

    def record(self, raw: Any, cls: type[T], ignore: tuple[str, ...] = (),
               **given: Any) -> T:
        """A ``cls`` from the JSON object ``raw``; ``given`` fields are not in the JSON (a
        tile's id is its key); ``ignore`` are keys read elsewhere (``about``)."""
        ctx = self.ctx
        if not isinstance(raw, dict):
            raise ctx.error("expected an object")
        hints = _hints(cast(Any, cls))
        values = dict(given)
        own = [f for f in fields(cls) if f.name not in given]  # type: ignore[arg-type]
        for f in own:
            optional = (f.default is not MISSING or f.default_factory is not MISSING) and not (
                f.metadata.get("required"))
            if f.name not in raw:
                if optional:
                    continue
                raise ctx.error(f"missing field {f.name!r}")
            value = raw[f.name]
            if value is None and optional:
                continue  # null: the default
            hint = hints[f.name]
            if f.metadata.get("required"):
                # A file must give it: None is only for what code makes.
                hint = _not_none(hint)
            with ctx.at(f.name):
                form = self.forms.get((cls, f.name))
                values[f.name] = form(self, value) if form else self.value(value, hint)
        extra = sorted(set(raw) - {f.name for f in own} - set(ignore))
        if extra:
            raise ctx.error(f"unknown field {extra[0]!r}")
        out = cls(**values)
        check = self.checks.get(cls)
        if check is not None:
            check(ctx, out)
        return out

    def value(self, raw: Any, hint: Any) -> Any:
        """A value of type ``hint`` from ``raw``."""
        ctx = self.ctx
        origin = get_origin(hint)
        if origin is Literal:
            return self._choice(raw, get_args(hint))
        if origin in (Union, types.UnionType):
            return self._union(raw, get_args(hint))
        if origin is tuple:
            return self._tuple(raw, get_args(hint))
        if origin is dict:
            key_type, item_type = get_args(hint)
            if not isinstance(raw, dict):
                raise ctx.error(f"expected an object, got {json.dumps(raw)}")
            return {self._key(key, key_type): self.item(key, item, item_type)
                    for key, item in raw.items()}
        if isinstance(hint, type) and is_dataclass(hint):
            form = self.forms.get(hint)
            return form(self, raw) if form else self.record(raw, hint)
        if not is_a(raw, hint):
            raise ctx.error(f"expected {type_name(hint)}, got {json.dumps(raw)}")
        return float(raw) if hint is float else raw

    def item(self, where: str | int, raw: Any, hint: Any) -> Any:
        """An item of a list or an object, read with the context at it."""
        with self.ctx.at(where):
            return self.value(raw, hint)

    def items(self, raw: Any, hint: Any) -> list[Any]:
        """A JSON list of values of type ``hint``."""
        if not isinstance(raw, list):
            raise self.ctx.error(f"expected a list, got {json.dumps(raw)}")
        return [self.item(i, x, hint) for i, x in enumerate(raw)]

    def _choice(self, raw: Any, choices: tuple[str, ...]) -> str:
        if not isinstance(raw, str):
            raise self.ctx.error(f"expected a string, got {json.dumps(raw)}")
        if raw not in choices:
            raise self.ctx.error(f"expected one of {', '.join(choices)}, got {raw!r}")
        return raw

    def _union(self, raw: Any, args: tuple[Any, ...]) -> Any:
        if raw is None and type(None) in args:
            return None
        kinds = [a for a in args if a is not type(None)]
        if len(kinds) == 1:
            return self.value(raw, kinds[0])
        for kind in kinds:  # plain types only (a path end: int | str)
            if is_a(raw, kind):
                return raw
        raise self.ctx.error(f"expected {type_name(tuple(kinds))}, got {json.dumps(raw)}")

    def _tuple(self, raw: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(self.items(raw, args[0]))
        if not isinstance(raw, list) or len(raw) != len(args):
            raise self.ctx.error(f"expected a list of {len(args)}, got {json.dumps(raw)}")
        return tuple(self.item(i, x, a) for i, (x, a) in enumerate(zip(raw, args, strict=True)))

    def _key(self, key: str, hint: Any) -> Any:
        if hint is int:
            if not key.isdigit():
                with self.ctx.at(key):
                    raise self.ctx.error(f"expected a number as the key, got {key!r}")
            return int(key)
        return self.item(key, key, hint) if hint is not str else key
