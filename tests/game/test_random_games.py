"""Complete games of random legal moves: invariants after every action, replay from the log."""

from __future__ import annotations

import json
import random

import pytest
from helpers import check_invariants
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from india1853.rules.game import Game, Settings
from india1853.rules.game.random_play import random_action

MAX_ACTIONS = 8000


def play_checked(seed: int, players: int) -> Game:
    game = Game(Settings(tuple("ABCDEF"[:players]), seed=seed))
    rng = random.Random(f"bot:{seed}")
    while not game.finished:
        assert len(game.log) < MAX_ACTIONS, "the game did not end"
        game.process(random_action(game, rng))
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
    again = Game.from_log(json.loads(json.dumps(game.to_log())))
    assert again.moderator_view() == game.moderator_view()
    assert again.scores() == game.scores()


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_game_to_the_end(players: int) -> None:
    game = play_checked(100 + players, players)
    assert game.state.end_reason in ("bank_broken", "share_price")
    check_replay(game)


@pytest.mark.soak
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 6))
def test_soak_random_games(seed: int, players: int) -> None:
    game = play_checked(seed, players)
    check_replay(game)
