"""The board picture the server sends (issue 21 item 9): drawn once per board, not per viewer,
and mostly from what was drawn before; kept compressed, and named by its content.

After an action every page asks for the board.  The picture of a game's board is kept beside
the game until the board changes (most actions - shares, runs, trains - leave it as it was),
and it is drawn by one :class:`~india1853.interfaces.render.board.BoardPainter` per edition,
which keeps each hex's drawing by content: a new tile costs that hex, a few milliseconds,
instead of the whole board (about 0.5 s).  The SVG (about 250 KB) is kept gzipped too (about
20 KB).  Its ETag names its content - the tiles and bases on the board - so a page whose board
has not changed gets ``304 Not Modified`` and nothing more.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from india1853.board.state import BoardState
from india1853.data.loader import load_edition
from india1853.data.model import Edition
from india1853.interfaces import render
from india1853.interfaces.render.board import BoardPainter

# zlib's level: 6 (the default) packs the board as well as 9 does, in half the time.
GZIP_LEVEL = 6


def renderer_fingerprint() -> str:
    """A digest of the renderer's source files (interfaces/render)."""
    digest = hashlib.sha256()
    for path in sorted(Path(render.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def packaged_painter(edition: str) -> BoardPainter:
    """The painter of the packaged edition ``edition``, one per process: what it drew of each
    hex serves every application of the process (the test servers forked from a process
    that drew each edition's first board inherit it: tests/web/forkserver.py)."""
    return BoardPainter(load_edition(edition))


@dataclass(frozen=True)
class BoardPicture:
    """A board's SVG, as it is and gzipped, and the ETag naming its content."""

    etag: str
    svg: bytes
    gzipped: bytes

    def nbytes(self) -> int:
        return len(self.svg) + len(self.gzipped)


class Boards:
    """The board painters of one server process, one per edition (thread-safe: the painters'
    memory of hexes is only added to)."""

    def __init__(self) -> None:
        self._painters: dict[str, BoardPainter] = {}
        self._guard = threading.Lock()
        # In every ETag: the renderer's own code, so that a picture drawn by another version
        # (before an upgrade) is never taken for this one's, while every process of one
        # version (and a restarted one) names a board alike.
        self._salt = renderer_fingerprint()

    def painter(self, ed: Edition) -> BoardPainter:
        with self._guard:
            painter = self._painters.get(ed.name)
            if painter is None:
                # The package's edition (every game's) is drawn by the process's painter.
                painter = self._painters[ed.name] = (
                    packaged_painter(ed.name) if ed is load_edition(ed.name)
                    else BoardPainter(ed))
            return painter

    def etag(self, board: BoardState) -> str:
        """The picture's name: a digest of what is drawn (the edition, tiles, bases)."""
        content = (board.edition.name,
                   tuple((coord, tile.id, rotation)
                         for coord, tile, rotation in board.tiles_on_board()),
                   tuple((b.hex, b.station, b.company) for b in board.bases))
        digest = hashlib.sha256(f"{self._salt}{content!r}".encode()).hexdigest()
        return f'"{digest[:32]}"'

    def svg(self, board: BoardState) -> str:
        return self.painter(board.edition).svg(board)

    def picture(self, board: BoardState, kept: BoardPicture | None) -> BoardPicture:
        """The picture of ``board``: ``kept`` if it shows this board, else drawn anew."""
        etag = self.etag(board)
        if kept is not None and kept.etag == etag:
            return kept
        svg = self.svg(board).encode("utf-8")
        return BoardPicture(etag, svg, gzip.compress(svg, GZIP_LEVEL, mtime=0))
