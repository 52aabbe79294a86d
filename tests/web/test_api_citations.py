"""The web API's refusals in a first-edition game cite the 1989 rules (11-41), not the 2009
numbers of the code both editions share; the game is unchanged."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from webclient import act, client, create, view

BIDS = {
    "Ann": [("Peshawar", "NWR"), ("Rawalpindi", "NWR"), ("Lahore", "NWR"), ("Multan", "NWR")],
    "Bob": [("Delhi", "EIR"), ("Cawnpore", "EIR"), ("Lucknow", "EIR"), ("Jaipur", "GIP")],
    "Cat": [("Mysore", "SIR"), ("Bangalore", "SIR"), ("Trichinopoly", "SIR"), ("Dacca", "BAR")],
}


@pytest.fixture
def c(server_url: str) -> httpx.Client:
    return client(server_url)


def _action(state: dict[str, Any], kind: str, entity: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "entity": entity, "entity_type": "player",
            "id": state["last_action_id"] + 1, "created_at": 0, **fields}


def test_a_refused_purchase_in_a_first_edition_game_cites_21_3(c: httpx.Client) -> None:
    made = create(c, edition="first")
    game, tokens = made["id"], made["tokens"]
    for player, claims in BIDS.items():
        state = view(c, game, tokens[player])
        bid = _action(state, "submit_bid", player,
                      claims=[{"city": city, "company": co} for city, co in claims])
        act(c, game, tokens[player], bid).raise_for_status()
    state = view(c, game, tokens["Ann"])
    buyer = state["turn"]["active"][0]["entity"]
    before = view(c, game, tokens[buyer])
    r = act(c, game, tokens[buyer], _action(before, "buy_share", buyer, company="MSM",
                                            source="ipo"))
    assert r.status_code == 422, r.text
    assert r.json()["detail"] == ("rule 21.3: the contract companies' shares must all be "
                                  "issued first")
    after = view(c, game, tokens[buyer])
    assert (after["last_action_id"], after["turn"]["view"]) == (
        before["last_action_id"], before["turn"]["view"])
