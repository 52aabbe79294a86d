"""Soak: the optimal router against the brute-force oracle on thousands of random positions.

Run by ``make soak`` (``pytest -m soak``); the figures of the last run are in
docs/performance.md.  ``ROUTER_SOAK_EXAMPLES=100`` (environment) runs a sample of each test
instead of 1000 examples.  Networks are grown at several places on the map (around Delhi, in
the Ganges valley next to Calcutta, in the metre-gauge south near Madras, around Bombay), in
both editions, with up to four trains of mixed gauge, '1M' trains and run duties (the
generator of ``test_router_oracle.py``), one test from the greedy start; every example is
derandomized, so a failure is reproducible.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_router_oracle import compare, positions

from india1853.board.graph import TrackGraph

SOAK = settings(max_examples=int(os.environ.get("ROUTER_SOAK_EXAMPLES", "1000")),
                derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

pytestmark = pytest.mark.soak


@SOAK
@given(positions(radius=3, min_tiles=8, max_tiles=16, max_trains=4))
def test_soak_delhi_second(position: tuple[TrackGraph, list[str]]) -> None:
    compare(*position)


@SOAK
@given(positions(edition="first", radius=3, min_tiles=8, max_tiles=16, max_trains=4))
def test_soak_delhi_first(position: tuple[TrackGraph, list[str]]) -> None:
    compare(*position)


@SOAK
@given(positions(radius=3, min_tiles=8, max_tiles=16, max_trains=4, centre="I27"))
def test_soak_calcutta_second(position: tuple[TrackGraph, list[str]]) -> None:
    compare(*position)


@SOAK
@given(positions(edition="first", radius=3, min_tiles=8, max_tiles=16, max_trains=4,
                 centre="I27"))
def test_soak_calcutta_first(position: tuple[TrackGraph, list[str]]) -> None:
    compare(*position)


@SOAK
@given(positions(radius=3, min_tiles=8, max_tiles=16, max_trains=4, centre="Q17"))
def test_soak_south_second(position: tuple[TrackGraph, list[str]]) -> None:
    compare(*position)


@SOAK
@given(positions(radius=3, min_tiles=8, max_tiles=16, max_trains=4, centre="L10"))
def test_soak_bombay_second(position: tuple[TrackGraph, list[str]]) -> None:
    compare(*position)


@SOAK
@given(positions(radius=3, min_tiles=8, max_tiles=16, max_trains=4, centre="H22"),
       st.integers(21, 300))
def test_soak_thresholds_ganges(position: tuple[TrackGraph, list[str]], threshold: int) -> None:
    # The first pass lists only runs worth at least ``threshold``: the passes must still end
    # at the proven optimum.
    compare(*position, first_threshold=threshold)


@SOAK
@given(positions(radius=3, min_tiles=8, max_tiles=16, max_trains=3, centre="I27"))
def test_soak_greedy_start_calcutta(position: tuple[TrackGraph, list[str]]) -> None:
    # The path of large networks (a greedy run set first, then only the runs that could
    # beat it) on the small ones.
    compare(*position, greedy_start=True)
