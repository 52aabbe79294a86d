"""The covered answer of a shared (hotseat) screen through real HTTP: ``?cover=true`` gives
the hotseat token the public view and the human seat to act next, never a seat's view; a
seat's own token and no token are unchanged by it (issue 19 item 2, docs/web-api.md)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from webclient import act, client, create, option, view


@pytest.fixture
def c(server_url: str) -> httpx.Client:
    return client(server_url)


def bonds(state: dict[str, Any]) -> list[Any]:
    """Every bond amount the answer shows, in the view and in the tables."""
    turn = state["turn"]
    found = [p.get("bond") for p in turn["view"]["players"]]
    found += [p.get("bond") for p in turn["tables"]["players"]]
    return [b for b in found if b]


def test_the_covered_answer_names_the_next_seat_and_holds_no_seats_view(
        c: httpx.Client) -> None:
    made = create(c, hotseat=True)
    game, hot = made["id"], made["hotseat_token"]
    state = view(c, game, hot, cover="true")
    assert state["covered"] is True and state["seat"] is None
    assert state["seats"] == ["Ann", "Bob", "Cat"] and state["next_seat"] == "Ann"
    assert state["turn"]["decisions"] == [] and state["can_undo"] is False
    # Ann writes her bond, the answer asked for covered: the public view, Bob to act next.
    ann = view(c, game, hot, seat="Ann")
    r = act(c, game, hot, option(ann, "place_bond", amount=300), seat="Ann", cover="true")
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["covered"] is True and after["seat"] is None
    assert after["next_seat"] == "Bob" and after["last_action_id"] == 1
    assert bonds(after) == []
    assert view(c, game, hot, cover="true") == after
    # The same game asked for Ann's view holds her bond: the covered answer hid it.
    assert set(bonds(view(c, game, hot, seat="Ann"))) == {300}
    # Without ?cover the hotseat answer is unchanged: the next human seat's own view.
    assert view(c, game, hot)["seat"] == "Bob"


def test_cover_changes_nothing_for_a_seats_own_token_or_a_spectator(c: httpx.Client) -> None:
    made = create(c, hotseat=True)
    game, ann = made["id"], made["tokens"]["Ann"]
    own = view(c, game, ann, cover="true")
    assert own["seat"] == "Ann" and "covered" not in own and own["turn"]["decisions"]
    spectator = view(c, game, None, cover="true")
    assert spectator["seat"] is None and "covered" not in spectator
    r = c.get(f"/api/games/{game}", params={"cover": "true", "seat": "Dan"},
              headers={"Authorization": f"Bearer {made['hotseat_token']}"})
    assert r.status_code == 403 and "Dan" in r.json()["detail"]
