"""The server's life: bots wake up when it starts again, games evicted from the memory cache
are rebuilt from their rows, the hotseat token undoes any human seat's action."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import ServerProcess
from webclient import act, client, create, option, view, wait_for

BOTS = [{"name": "Ann"}, {"name": "Bob", "bot": "greedy"}, {"name": "Cat", "bot": "random"}]


def test_bots_move_when_the_server_starts_again(
        tmp_path: Path, start_server: Callable[..., ServerProcess]) -> None:
    slow = start_server(tmp_path / "db", "--bot-delay", "60")
    c = client(slow.url)
    made = create(c, players=BOTS)
    game, ann = made["id"], made["tokens"]["Ann"]
    assert view(c, game, ann)["last_action_id"] == 0  # the bots are still "thinking"
    slow.stop()
    again = client(start_server(tmp_path / "db").url)
    wait_for(lambda: view(again, game, ann)["last_action_id"] == 2)
    bonds = [p["bond_placed"] for p in view(again, game, ann)["turn"]["view"]["players"]]
    assert bonds == [False, True, True]


def test_games_evicted_from_the_cache_are_rebuilt_from_their_rows(
        tmp_path: Path, start_server: Callable[..., ServerProcess]) -> None:
    c = client(start_server(tmp_path / "db", "--cache-games", "1").url)
    games = [create(c, seed=i) for i in range(3)]
    for round_, name in enumerate(("Ann", "Bob", "Cat")):
        for i, made in enumerate(games):
            token = made["tokens"][name]
            amount = 80 + 10 * i
            r = act(c, made["id"], token, option(view(c, made["id"], token), "place_bond",
                                                 amount=amount))
            assert r.status_code == 200, r.text
            assert r.json()["last_action_id"] == round_ + 1
    for i, made in enumerate(games):
        players = view(c, made["id"])["turn"]["view"]["players"]
        assert [p["bond"] for p in players] == [80 + 10 * i] * 3


def test_hotseat_token_undoes_any_human_seats_action(server_url: str) -> None:
    c = client(server_url)
    made = create(c, hotseat=True)
    game, hot, cat = made["id"], made["hotseat_token"], made["tokens"]["Cat"]
    r = act(c, game, made["tokens"]["Ann"], option(view(c, game, made["tokens"]["Ann"]),
                                                   "place_bond", amount=90))
    assert r.status_code == 200
    assert view(c, game, cat)["can_undo"] is False  # Ann's action, not Cat's
    state = view(c, game, hot)
    assert state["can_undo"] is True and state["undo"]["entity"] == "Ann"
    r = act(c, game, hot, state["undo"])
    assert r.status_code == 200, r.text
    assert [p["bond_placed"] for p in r.json()["turn"]["view"]["players"]] == [False] * 3
