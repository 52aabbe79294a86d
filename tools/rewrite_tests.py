"""Write pytest's rewritten bytecode of the test files once, before the test workers start.

pytest compiles every test module (``test_*.py``) and ``conftest.py`` its own way, rewriting
the asserts so that a failure shows the values, and keeps the result in ``__pycache__``
(``*.cpython-311-pytest-X.Y.Z.pyc``, checked against the source's hash). Each pytest-xdist
worker imports every test file to collect it, so on a fresh clone both workers rewrite all of
them at the same moment: about 5 CPU-s each (issue 20: `make test` under 6 minutes; the
`startup` section of docs/test-speed.md). `make unit` runs this first: it writes the same
files pytest would (its own functions, the same header), so both workers read them instead.
A file whose rewritten bytecode is already there and current is left alone.

It uses pytest's internal functions: if a pytest version lacks them it says so and writes
nothing (the workers then rewrite as before; nothing they run changes).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from fnmatch import fnmatch
from pathlib import Path

TEST_FILES = ("test_*.py", "*_test.py", "conftest.py")  # pytest's python_files, and conftests


def _current(pyc: Path, source_hash: bytes) -> bool:
    """The rewritten bytecode is there and made from this source (pytest's own header)."""
    try:
        with pyc.open("rb") as fp:
            header = fp.read(16)
    except OSError:
        return False
    return (header[:4] == importlib.util.MAGIC_NUMBER and header[4:8] == b"\x03\x00\x00\x00"
            and header[8:16] == source_hash[:8])


def main(roots: list[str]) -> int:
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _write_pyc_fp,
            get_cache_dir,
            rewrite_asserts,
        )
    except ImportError as error:
        print(f"tools/rewrite_tests.py: pytest has changed ({error}); the workers rewrite")
        return 0
    for root in roots:
        for path in sorted(Path(root).resolve().rglob("*.py")):
            if not any(fnmatch(path.name, pattern) for pattern in TEST_FILES):
                continue
            source = path.read_bytes()
            source_hash = importlib.util.source_hash(source)
            cache_dir = get_cache_dir(path)
            pyc = cache_dir / (path.name[:-3] + PYC_TAIL)
            if _current(pyc, source_hash):
                continue
            # What pytest's _rewrite_test does (no config: the default ini, no pass hook).
            tree = ast.parse(source, filename=str(path))
            rewrite_asserts(tree, source, str(path), None)
            code = compile(tree, str(path), "exec", dont_inherit=True)
            cache_dir.mkdir(exist_ok=True)
            partial = cache_dir / f"{pyc.name}.{os.getpid()}"
            with partial.open("wb") as fp:
                _write_pyc_fp(fp, source_hash, code)
            os.replace(partial, pyc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["tests"]))
