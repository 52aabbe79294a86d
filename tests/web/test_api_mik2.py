"""The MIK 2 kit over HTTP: a seat sees its own hand and its card step's options; no other
seat, spectator or public log sees another hand, the stack or the rejected cards (raw bytes)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from webclient import auth, client, view

from india1853.rules.game import Game, Settings

FIXTURE = Path(__file__).resolve().parents[1] / "games" / "first" / "random-4p-seed2-mik2.json"


def _card_step() -> tuple[int, str, list[str], list[str]]:
    """The first action count after which a player holding cards is to action them, that
    player, his cards, and the cards nobody but their holders may know (hands, stack)."""
    log = json.loads(FIXTURE.read_text())
    game = Game(Settings.from_json(log["settings"]))
    for n, action in enumerate(log["actions"], start=1):
        game.process(action)
        st = game.state
        if st.pending and st.pending[0].kind == "kit_action" and n > 1:
            kit = st.kit
            assert kit is not None
            who = st.pending[0].entity
            others = [c for p, h in kit.hands.items() if p != who for c in h]
            return n, who, list(kit.hands[who]), [*others, *kit.deck]
    raise AssertionError("no card step in the fixture")


def test_a_seat_sees_its_own_hand_and_card_options_and_nothing_else(server_url: str) -> None:
    n, who, mine, hidden = _card_step()
    log = json.loads(FIXTURE.read_text())
    body = {k: log[k] for k in ("engine_version", "settings")}
    body["actions"] = log["actions"][:n]
    r = httpx.post(f"{server_url}/api/games/import", params={"hotseat": "false"}, json=body,
                   timeout=120)
    assert r.status_code == 201, r.text
    made = r.json()
    game_id, tokens = made["id"], made["tokens"]
    c = client(server_url)
    own = view(c, game_id, tokens[who])
    assert own["turn"]["view"]["kit"]["hands"][who] == mine
    kinds = {o["action"]["type"] for d in own["turn"]["decisions"] for o in d["options"]}
    assert {"reject_cards", "pass"} <= kinds
    own_bytes = c.get(f"/api/games/{game_id}", headers=auth(tokens[who])).content
    for card in mine:
        assert card.encode() in own_bytes
    secret = [card for card in hidden if card not in mine]
    for other in (p for p in tokens if p != who):
        seen = view(c, game_id, tokens[other])
        assert seen["turn"]["view"]["kit"]["hands"][who] is None
        raw = c.get(f"/api/games/{game_id}", headers=auth(tokens[other])).content
        theirs = json.loads(raw)["turn"]["view"]["kit"]["hands"][other]
        assert not any(f'"{card}"'.encode() in raw for card in [*mine, *secret]
                       if card not in theirs)
    public = [c.get(f"/api/games/{game_id}").content, c.get(f"/api/games/{game_id}/log").content]
    for raw in public:
        assert not any(f'"{card}"'.encode() in raw for card in [*mine, *secret])
