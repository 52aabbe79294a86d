"""The shape of the imports, read from the source (issue 20): no module of ``india1853.rules``
imports inside a function (the compiled router kernel's lazy load aside), and no two modules of
``src`` import each other, directly or round a circle.

An import inside a function hides a circle instead of removing it; a circle means that neither
module can be read, tested or changed without the other.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "india1853"
# The router's compiled kernel is optional (a C extension built at install): loaded lazily so
# that the pure-Python router works without it.
LAZY_ALLOWED = {f"{PACKAGE}.rules.router.kernel"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


MODULES = _modules()


def _base(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The module an ``import from`` names, relative imports resolved."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    package = package[:len(package) - node.level + 1]
    return ".".join([*package, *([node.module] if node.module else [])])


def _targets(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The modules of ``src`` that an import statement loads: a name imported from a package is
    its submodule if it is one, else the package itself."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in MODULES:
                yield alias.name
        return
    base = _base(module, path, node)
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if sub in MODULES:
            yield sub
        elif base in MODULES:
            yield base


@functools.cache
def _imports() -> dict[str, list[tuple[str, int, bool]]]:
    """Each module's imports of ``src`` modules: (target, line, inside a function). Read when a
    test first asks, not when the file is imported: every pytest-xdist worker imports every test
    file to collect it, and only the one that runs these tests should pay for parsing ``src``."""
    out: dict[str, list[tuple[str, int, bool]]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        inner = {id(n) for fn in ast.walk(tree)
                 if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                 for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))}
        out[module] = [(target, node.lineno, id(node) in inner)
                       for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                       for target in _targets(module, path, node)]
    return out



def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one importing itself
    (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges.get(node, ()):
                    found.append(sorted(component))
    return found


def test_the_reader_sees_the_package() -> None:
    game = f"{PACKAGE}.rules.game.game"
    imports = {(t, inner) for t, _, inner in _imports()[game]}
    assert (f"{PACKAGE}.rules.game.state", False) in imports
    # A relative import and a name imported from a package are resolved.
    assert _base("a.b.c", Path("c.py"), ast.ImportFrom("d", [], 1)) == "a.b.d"
    assert _base("a.b", Path("__init__.py"), ast.ImportFrom(None, [], 1)) == "a.b"


def test_no_import_inside_a_function_in_rules() -> None:
    found = sorted({f"{module} line {line}: imports {target}"
             for module, imports in _imports().items() if module.startswith(f"{PACKAGE}.rules.")
             for target, line, inner in imports if inner and target not in LAZY_ALLOWED})
    assert not found, "imports inside functions (a hidden circle?):\n" + "\n".join(found)


def test_no_circle_of_imports() -> None:
    edges = {module: {target for target, _, _ in imports} for module, imports in _imports().items()}
    circles = _circles(edges)
    assert not circles, "modules that import each other:\n" + "\n".join(
        " <-> ".join(c) for c in circles)


def test_the_circle_finder_finds_circles() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"a"}}) == [["a"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
