"""The architecture, read from the imports of every module under ``src/india1853/``
(docs/architecture.md): the layers data < board < rules < interfaces import only downward, and
no interface package imports another.

Every import counts: at the top, inside a function, under ``TYPE_CHECKING``.

Inside ``interfaces/``:

* the interfaces proper, ``terminal/`` (the hotseat game) and ``web/`` (the server), each stand
  alone: neither imports the other, nor the command line;
* the shared pieces (every module directly in ``interfaces/``, and the packages ``render/``
  and ``bots/``, which every interface uses) import no interface and not the command line;
* the command line (``cli.py``, ``commands/``) is the front door: it starts the terminal game
  (``play``) and the server (``serve``, ``admin``), so it alone may import them.

The position-file format (``rules/position.py``) stands above the rules: no rule module
imports it.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "india1853"
LAYERS = {"errors": 0, "data": 1, "board": 2, "rules": 3, "interfaces": 4}
INTERFACES = ("terminal", "web")
COMMAND_LINE = ("cli", "commands")


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> Iterator[str]:
    """Every module ``path`` imports from india1853 (relative imports resolved)."""
    package = _name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            yield module
            # ``from india1853.interfaces import render``: the names may be modules.
            yield from (f"{module}.{a.name}" for a in node.names)


def _part(module: str, depth: int) -> str | None:
    parts = module.split(".")
    return parts[depth] if len(parts) > depth and parts[0] == "india1853" else None


def _room(module: str) -> str | None:
    """Where an interfaces module lives: an interface, the command line, or shared."""
    if _part(module, 1) != "interfaces":
        return None
    top = _part(module, 2)
    if top in INTERFACES:
        return top
    if top in COMMAND_LINE:
        return "command line"
    return "shared"


def _known(module: str) -> bool:
    """Whether ``module`` names a module or package of the source tree (not a name in one)."""
    path = SRC.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


@functools.cache
def _edges() -> tuple[tuple[str, str], ...]:
    """Every import edge of the source tree, read once per test process for the four tests
    below (reading and parsing every module is most of this file's cost)."""
    return tuple(sorted({(_name(path), target) for path in _modules() for target in _imports(path)
                   if target.startswith("india1853.") and _known(target)}))


def test_the_reader_sees_the_imports_that_matter() -> None:
    """The test reads what it must: a known import of each kind is among the edges."""
    edges = set(_edges())
    assert ("india1853.interfaces.web.store", "india1853.interfaces.charts") in edges
    assert ("india1853.rules.router.passes", "india1853.rules.router.kernel") in edges  # lazy
    assert ("india1853.interfaces.commands.play", "india1853.interfaces.terminal.loop") in edges


def test_no_layer_imports_upward() -> None:
    wrong = []
    for source, target in _edges():
        mine, theirs = _part(source, 1), _part(target, 1)
        if mine in LAYERS and theirs in LAYERS and LAYERS[theirs] > LAYERS[mine]:
            wrong.append(f"{source} (layer {mine}) imports {target} (layer {theirs})")
    assert not wrong, "\n".join(wrong)


def test_no_interface_package_imports_another() -> None:
    wrong = []
    for source, target in _edges():
        mine, theirs = _room(source), _room(target)
        if mine is None or theirs is None or mine == theirs or mine == "command line":
            continue
        if theirs in (*INTERFACES, "command line"):
            wrong.append(f"{source} ({mine}) imports {target} ({theirs})")
    assert not wrong, "\n".join(wrong)


def test_no_rule_module_imports_the_position_file_format() -> None:
    position = "india1853.rules.position"
    wrong = [source for source, target in _edges()
             if target == position and _part(source, 1) == "rules" and source != position]
    assert not wrong, f"{wrong} import {position}"
