"""The optimal router: the company's best run, with a certificate of optimality.

The stages (described in full in docs/routes.md), one module each:

1. :mod:`.reduce`: the track graph per train gauge, chains of tile edges collapsed into
   *links* that carry the resources they consume (4.5.10 / 33.10).
2. :mod:`.arms`: every path from a company base (4.5.2) hop by hop to a station, and the
   candidate runs they make (an arm alone, or two arms of one base).
3. :mod:`.search`: the branch and bound over the trains (4.5.10 no shared resource, 4.6.6
   one mail, 4.2.3 / 4.4.2 run duties), within an optional :class:`Budget`.
4. :mod:`.passes`: :func:`best_run`, the passes from a greedy start and thresholds down to
   the exhaustive one that certifies the optimum; the two-train case by the compiled
   :mod:`.kernel` (numba, loaded on first use).

:mod:`.tuning` holds the figures that decide only how fast.
"""

from __future__ import annotations

import importlib

from india1853.rules.router.passes import BestRun, SearchStats, best_run
from india1853.rules.router.search import Budget

__all__ = ["BestRun", "Budget", "SearchStats", "best_run", "warm_up"]


def warm_up() -> None:
    """Load the compiled kernel now (from numba's cache, 0.3-0.7 s; compiled if not cached),
    so that the first run of a game does not wait for it.  Without numba: nothing to do."""
    # Imported here, not above: numpy and numba stay out of every command that never routes.
    importlib.import_module("india1853.rules.router.kernel").warm()
