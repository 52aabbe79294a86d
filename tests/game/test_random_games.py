"""Complete games of random legal moves: invariants after every action, replay from the log."""

from __future__ import annotations

import json
import os
import random
import warnings

import pytest
from helpers import check_invariants
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from india1853.rules.game import Game, Settings
from india1853.rules.game.random_play import random_action

MAX_ACTIONS = 8000
# Random moves can kill a game's economy: players sell everything, the running companies can
# neither afford a tile nor find a run, no new company can float, and the bank never breaks
# (soak game 72: stuck in Phase 2 for over 7,000 actions).  The rules have no end for that,
# so a game that reaches MAX_ACTIONS passes only as such a stall: nothing built, bought or
# earned for the last STALL_WINDOW actions (docs/rulings.md, "The soak").
STALL_WINDOW = 4000
PROGRESS = frozenset({"lay_tile", "promote_tile", "place_base", "buy_train"})


def play_checked(seed: int, players: int) -> Game:
    """A complete game (or a stalled one, see STALL_WINDOW) with the invariants asserted after
    every action and the views checked for secrets every 97 actions."""
    game = Game(Settings(tuple("ABCDEF"[:players]), seed=seed))
    rng = random.Random(f"bot:{seed}")
    last_progress = 0
    while not game.finished:
        if len(game.log) >= MAX_ACTIONS:
            idle = len(game.log) - last_progress
            assert idle >= STALL_WINDOW, f"the game did not end (progress {idle} actions ago)"
            warnings.warn(f"seed {seed}, {players} players: stalled, nothing built, bought or "
                          f"earned in the last {idle} actions", stacklevel=2)
            break
        action = random_action(game, rng)
        game.process(action)
        if action["type"] in PROGRESS or (action["type"] == "run_routes"
                                          and game.state.turn.revenue > 0):
            last_progress = len(game.log)
        check_invariants(game)
        if len(game.log) % 97 == 0:
            check_secrets(game)
    check_secrets(game)
    return game


def check_secrets(game: Game) -> None:
    """No view shows another player's bond before all are in, nor unfulfilled bid cities."""
    all_in = all(p.bond is not None for p in game.state.players)
    for viewer in [None, *game.settings.players]:
        for p in game.view(viewer)["players"]:
            if p["name"] == viewer:
                continue
            if not all_in:
                assert p["bond"] is None
            if not p["bond_returned"]:
                assert p["cities"] is None


def check_replay(game: Game) -> None:
    """The log (through JSON) replays to the identical state, checked and unchecked."""
    data = json.loads(json.dumps(game.to_log()))
    again = Game.from_log(data)
    assert again.state == game.state
    assert again.moderator_view() == game.moderator_view()
    assert again.scores() == game.scores()
    fast = Game.from_log(data, check=False)
    assert fast.state == game.state and fast.log == game.log


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_game_to_the_end(players: int) -> None:
    game = play_checked(100 + players, players)
    assert game.state.end_reason in ("bank_broken", "share_price")
    check_replay(game)


# The soak (make soak): SOAK_GAMES seeded games, players cycling 3, 4, 5, 6, one test each so
# that pytest-xdist can share them out; plus a property-based run where Hypothesis draws the
# seeds and player counts.
SOAK_GAMES = int(os.environ.get("INDIA1853_SOAK_GAMES", "2000"))
SOAK_FIRST = int(os.environ.get("INDIA1853_SOAK_FIRST", "0"))  # to play a further batch
SOAK_HYPOTHESIS_GAMES = int(os.environ.get("INDIA1853_SOAK_HYPOTHESIS_GAMES", "100"))


def soak_game(index: int) -> tuple[int, int]:
    """(seed, players) of soak game ``index``."""
    return random.Random(f"soak:{index}").randrange(2**32), 3 + index % 4


@pytest.mark.soak
@pytest.mark.parametrize("index", range(SOAK_FIRST, SOAK_FIRST + SOAK_GAMES))
def test_soak_random_game(index: int) -> None:
    seed, players = soak_game(index)
    game = play_checked(seed, players)
    assert game.state.end_reason in ("bank_broken", "share_price") or not game.finished
    check_replay(game)


@pytest.mark.soak
@settings(max_examples=SOAK_HYPOTHESIS_GAMES, deadline=None,
          suppress_health_check=list(HealthCheck), database=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 6))
def test_soak_random_games_property(seed: int, players: int) -> None:
    game = play_checked(seed, players)
    check_replay(game)
