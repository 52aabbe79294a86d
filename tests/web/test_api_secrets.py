"""Each token sees only what its seat may see: another player's bond and bid cities never
reach it, in JSON, in the SSE stream or in error texts (the raw bytes are searched)."""

from __future__ import annotations

import json
import re
from typing import Any

from webclient import EventStream, act, auth, client, create, option, view, wait_for

ANN_BOND = 173  # not a £10 step: no other number on the page can be it
ANN_CASH_AFTER = 730 - ANN_BOND


def number(n: int) -> re.Pattern[bytes]:
    return re.compile(rb"(?<![0-9.])" + str(n).encode() + rb"(?![0-9.])")


def without_decisions(raw: bytes) -> bytes:
    """A response less its own options (the cities a seat on turn may claim are public)."""
    data: dict[str, Any] = json.loads(raw)
    data["turn"] = {**data["turn"], "decisions": []}
    return json.dumps(data).encode()


def test_no_other_seats_bond_or_cities_reach_a_token(server_url: str) -> None:
    c = client(server_url)
    made = create(c, seed=11)
    game = made["id"]
    ann, bob, cat = (made["tokens"][n] for n in ("Ann", "Bob", "Cat"))
    streams = {
        "Bob": EventStream(server_url, f"/api/games/{game}/events", token=bob),
        "spectator": EventStream(server_url, f"/api/games/{game}/events"),
    }
    try:
        wait_for(lambda: all(s.events for s in streams.values()), 30)
        bond = option(view(c, game, ann), "place_bond")
        r = act(c, game, ann, {**bond, "amount": ANN_BOND})
        assert r.status_code == 200, r.text
        assert number(ANN_BOND).search(r.content)  # Ann sees her own bond
        wait_for(lambda: all(len(s.events) == 2 for s in streams.values()), 30)

        def others_bytes(token: str) -> list[bytes]:
            out = [c.get(f"/api/games/{game}", headers=auth(token)).content,
                   c.get(f"/api/games/{game}").content,
                   c.get(f"/api/games/{game}/log").content,
                   c.get("/api/games").content,
                   c.get(f"/api/games/{game}/at/1").content]
            # Errors: an illegal bond, another seat's action, a stale id, a bad undo.
            b = {**bond, "entity": "Bob", "id": 2}
            out.append(act(c, game, token, {**b, "amount": 7}).content)
            out.append(act(c, game, token, {**bond, "id": 2}).content)
            out.append(act(c, game, token, {**b, "id": 1}).content)
            out.append(act(c, game, token, {"type": "undo", "entity": "Ann",
                                            "entity_type": "player", "id": 2,
                                            "created_at": 0}).content)
            return out

        for raw in [*others_bytes(bob), *others_bytes(cat),
                    *(bytes(s.raw) for s in streams.values())]:
            assert not number(ANN_BOND).search(raw), raw[:300]
            assert not number(ANN_CASH_AFTER).search(raw), raw[:300]

        for token, amount in ((bob, 110), (cat, 100)):
            state = view(c, game, token)
            act(c, game, token, option(state, "place_bond", amount=amount)).raise_for_status()
        # Claims in the order of the bonds: Ann's is the largest, she claims first.
        ann_state = view(c, game, ann)
        before = [c.get(f"/api/games/{game}", headers=auth(cat)).content,
                  c.get(f"/api/games/{game}").content]
        claims = [o["action"] for d in ann_state["turn"]["decisions"] for o in d["options"]
                  if o["type"] == "claim_city"]
        claim = next(a for a in claims
                     if all(a["city"].encode() not in raw for raw in before))
        city = claim["city"].encode()
        r = act(c, game, ann, claim)
        assert r.status_code == 200, r.text
        assert city in r.content  # her own city, in her own view
        on_turn = view(c, game, bob)
        assert on_turn["turn"]["decisions"], "Bob claims next"
        wait_for(lambda: streams["Bob"].events[-1][0] == on_turn["last_action_id"], 30)
        raws = [without_decisions(c.get(f"/api/games/{game}", headers=auth(bob)).content),
                c.get(f"/api/games/{game}", headers=auth(cat)).content,
                c.get(f"/api/games/{game}").content,
                c.get(f"/api/games/{game}/log").content,
                c.get(f"/api/games/{game}/at/{on_turn['last_action_id']}").content,
                bytes(streams["spectator"].raw),
                *(without_decisions(data) for _, data in streams["Bob"].events)]
        claim_cat = {**claim, "entity": "Cat", "id": on_turn["turn"]["next_id"]}
        raws.append(act(c, game, cat, claim_cat).content)  # not Cat's turn: 422
        raws.append(act(c, game, cat, {**claim, "id": on_turn["turn"]["next_id"]}).content)
        raws.append(act(c, game, bob, {**claim, "entity": "Bob", "city": "Nowhere",
                                       "id": on_turn["turn"]["next_id"]}).content)
        for raw in raws:
            assert city not in raw, raw[:300]
    finally:
        for s in streams.values():
            s.close()
