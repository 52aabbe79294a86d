"""The game log in words: "EIR lays tile 5 on H24 (Patna), pays £60".

:func:`narrate` describes one action from the views before and after it (money spent is the
change in the acting entity's cash), then the events the action set off: a new round or phase,
a contract fulfilled, bonds revealed, the end of the game.  :func:`game_log` replays a whole log.

Secrets: the narration tells an action as the table saw it when it was made, its secret fields
withheld as the engine's one declaration of secrets says (``rules/game/secrecy.py``):
:func:`narrate` is given the action so observed (:func:`observed`).  The reveals are events of
their own: every bond when all are in (2.5.3), a bid's cities when the contract is fulfilled
(4.3), every secret at the end (5.1); the public views the narration reads hide the same, so a
secret cannot leak through a cash change or a list.  ``moderator``: every action whole.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from india1853.data.model import Edition
from india1853.rules.game.game import Game
from india1853.rules.game.secrecy import as_made
from india1853.rules.game.steps import STEPS
from india1853.rules.game.turn.decisions import title
from india1853.rules.game.wording import agree, possessive, verb

View = Mapping[str, Any]



@dataclass(frozen=True)
class LogLine:
    """One narrated action: its id, who acted, and the sentences describing it."""

    id: int
    entity: str
    lines: tuple[str, ...]

    def text(self) -> str:
        return "\n".join(self.lines)


def place_name(ed: Edition, hex_: str) -> str:
    """``"H24 (Patna)"`` for a named city's hex, else just the hex."""
    for city in ed.cities:
        if city.hex == hex_:
            return f"{hex_} ({city.name})"
    return hex_


def _money(n: int) -> str:
    return f"£{n}" if n >= 0 else f"-£{-n}"


def _player(view: View, name: str) -> Mapping[str, Any]:
    for p in view["players"]:
        if p["name"] == name:
            return dict(p)
    return {}


def _cash(view: View, entity: str) -> int | None:
    """Cash as the view shows it; None where the view hides it (a secret bond, 2.5.2)."""
    if entity in view["companies"]:
        cash = view["companies"][entity]["cash"]
    else:
        cash = _player(view, entity).get("cash", 0)
    return None if cash is None else int(cash)


def _spent(before: View, after: View, entity: str) -> int:
    was, now = _cash(before, entity), _cash(after, entity)
    return 0 if was is None or now is None else was - now


def _pays(amount: int) -> str:
    return f", pays {_money(amount)}" if amount > 0 else ""


def _shares(n: int) -> str:
    return "a share" if n == 1 else f"{n} shares"


def round_title(view: View) -> str:
    """The round in words, as the turn model titles it, in the log's sentence case ("Stock
    round 2", "Operating round 3.1", "Contract bids: bonds (2.5.2)")."""
    text = title(view).replace(" Round", " round")
    # A stage of the contract bids is told with its rule beside its title.
    step = STEPS.get(str(view["round"]))
    return f"{text} ({step.rule})" if step is not None and step.secret else text


def _hand_size(view: View, who: str) -> int:
    return int(((view.get("kit") or {}).get("hand_sizes") or {}).get(who, 0))


def _describe_player_action(a: Mapping[str, Any], before: View, after: View) -> str:
    """``a`` as observed (secrecy.py): a secret field still hidden is missing."""
    who, kind = a["entity"], a["type"]
    spent = _spent(before, after, who)
    if kind == "place_bond":
        if "amount" in a:
            return agree(who, f"places a bond of {_money(a['amount'])}")
        return agree(who, "places a secret bond")
    if kind == "claim_city":
        city = f"names {a['city']} and " if "city" in a else "names a secret city and "
        return agree(who, f"{city}{verb(who, 'claims')} a share of {a['company']}")
    if kind == "submit_bid":
        if "claims" not in a:
            return agree(who, "hands in a secret bid")
        if all("city" in c for c in a["claims"]):
            named = ", ".join(f"{c['city']} ({c['company']})" for c in a["claims"])
            return agree(who, f"bids {named}")
        shares = ", ".join(str(c["company"]) for c in a["claims"])
        return agree(who, f"bids for shares of {shares} (the cities secret)")
    if kind == "buy_share":
        where = "the bank pool" if a["source"] == "pool" else "the offering"
        return agree(who, f"buys a share of {a['company']} from {where} for {_money(spent)}")
    if kind == "sell_shares":
        return agree(who, f"sells {_shares(a['count'])} of {a['company']} for "
                          f"{_money(-spent)}")
    if kind == "redeem_share":
        return agree(who, f"redeems a share of {a['company']} for {_money(spent)}")
    if kind == "offer_elephant":
        return agree(who, f"offers the Elephant to {a['buyer']} for {_money(a['price'])}")
    if kind == "accept_offer":
        return agree(who, "accepts the offer")
    if kind == "reject_offer":
        return agree(who, "rejects the offer")
    if kind == "call_extra_or":
        return agree(who, "calls an extra operating round (4.9)")
    if kind == "draw_card":
        return agree(who, "takes a card of the MIK 2 kit")
    if kind == "reject_cards":
        # Face down on the discard stack: which cards is secret, how many is not.
        if "cards" in a:
            return agree(who, f"rejects {', '.join(a['cards'])}")
        count = _hand_size(before, who) - _hand_size(after, who)
        return agree(who, f"rejects {count} card(s)")
    if kind == "play_card":
        target = a.get("hex") or a.get("city")
        return agree(who, f"actions {a['card']}" + (f" on {target}" if target else ""))
    if kind == "pass":
        pending = before.get("pending") or []
        step = STEPS.get(str(pending[0]["kind"] if pending else before["round"]))
        return agree(who, step.declined if step is not None else "passes")
    return f"{who}: {kind}"


def _train_name(view: View, train_id: str) -> str:
    for t in view.get("trains", []):
        if t["id"] == train_id:
            return str(t.get("runs_as") or t["card"])
    return train_id


def _describe_company_action(ed: Edition, a: Mapping[str, Any], before: View,
                             after: View) -> str:
    co, kind = a["entity"], a["type"]
    spent = _spent(before, after, co)
    if kind == "choose_lay_option":
        return f"{co} chooses lay option {a['option']} (4.1.3)"
    if kind == "lay_tile":
        return f"{co} lays tile {a['tile']} on {place_name(ed, a['hex'])}{_pays(spent)}"
    if kind == "promote_tile":
        return f"{co} upgrades {place_name(ed, a['hex'])} to tile {a['tile']}{_pays(spent)}"
    if kind == "place_base":
        return f"{co} places a base on {place_name(ed, a['hex'])}{_pays(spent)}"
    if kind == "run_routes":
        return _describe_run(co, a, before, after)
    if kind == "dividend":
        return _describe_dividend(co, a, before, after)
    if kind == "buy_train":
        return _describe_train(co, a, spent)
    if kind == "discard_train":
        return f"{co} returns a '{_train_name(before, a['train'])}' train to the bank (4.8.6)"
    if kind == "repay_credit":
        return f"{co} pays for the train bought on credit{_pays(spent)}"
    if kind == "return_credit_train":
        return f"{co} returns the train bought on credit (4.8.10)"
    if kind == "accept_offer":
        return f"{co} accepts the offer for its train"
    if kind == "reject_offer":
        return f"{co} rejects the offer for its train"
    if kind == "pass":
        kind = (before.get("turn") or {}).get("step", "")
        step = STEPS.get(kind)
        return f"{co} passes ({step.name if step is not None else kind or 'its turn'})"
    return f"{co}: {kind}"


def _describe_run(co: str, a: Mapping[str, Any], before: View, after: View) -> str:
    """The run's revenue (4.6.2) and, apart, the mail paid to the company at once (4.6.6)."""
    routes = a.get("routes") or []
    turn = after.get("turn") or {}
    revenue = turn.get("revenue")
    if not routes:
        return f"{co} runs no train"
    trains = ", ".join(f"'{r.get('train')}'" + (" with the mail" if r.get("mail") else "")
                       for r in routes)
    amount = f" for {_money(int(revenue))}" if isinstance(revenue, int) else ""
    mail = -_spent(before, after, co)
    extra = f"; the mail pays {co} {_money(mail)}" if mail > 0 else ""
    return (f"{co} runs {len(routes)} train{'s' if len(routes) != 1 else ''} ({trains})"
            f"{amount}{extra}")


def _describe_dividend(co: str, a: Mapping[str, Any], before: View, after: View) -> str:
    revenue = (before.get("turn") or {}).get("revenue", 0)
    verb = "pays out" if a["kind"] == "payout" else "withholds"
    text = f"{co} {verb} {_money(int(revenue))}"
    old, new = before["companies"][co]["price"], after["companies"][co]["price"]
    if old is not None and new is not None and old != new:
        text += f"; share price {_money(old)} → {_money(new)}"
    return text


def _describe_train(co: str, a: Mapping[str, Any], spent: int) -> str:
    source = a.get("source", "bank")
    origin = "the bank" if source == "bank" else source
    extras = []
    if a.get("contribution"):
        extras.append(f"the director adds {_money(a['contribution'])}")
    if a.get("credit"):
        extras.append("on the manager's credit (3.4.3)")
    if a.get("token"):
        extras.append("with the minor's token (4.8.19)")
    price = spent + int(a.get("contribution", 0) or 0)
    text = f"{co} buys a '{a['train']}' train from {origin} for {_money(price)}"
    if source != "bank" and price == 0 and a.get("price"):
        text = f"{co} offers {_money(a['price'])} for a '{a['train']}' train of {source}"
    return text + ("; " + ", ".join(extras) if extras else "")


def describe_action(ed: Edition, action: Mapping[str, Any], before: View, after: View) -> str:
    """One sentence for ``action`` as observed (secrecy.py), given the (public or
    moderator's) views around it."""
    if action["type"] in ("undo", "redo"):
        # The entity is the one whose action is taken back (or put back), not a person
        # undoing: "Greedy2 undos" read as if the bot had chosen to.
        done = "taken back" if action["type"] == "undo" else "put back (redo)"
        return f"{possessive(action['entity'])} last action is {done}"
    if action["entity_type"] == "company":
        return _describe_company_action(ed, action, before, after)
    return _describe_player_action(action, before, after)


def _bond_events(before: View, after: View) -> Iterator[str]:
    if before["round"] == "bonds" and after["round"] != "bonds":
        bonds = ", ".join(f"{p['name']} {_money(p['bond'])}" for p in after["players"]
                          if p["bond"] is not None)
        yield f"Bonds revealed (2.5.3): {bonds}"
    if after.get("elephant") and after.get("elephant") != before.get("elephant"):
        yield agree(after['elephant'], "holds the Elephant")


def _settlement_events(before: View, after: View) -> Iterator[str]:
    """2.7.2-2.7.3: when the last bid ends, every player pays par for the shares claimed; what
    he cannot afford stays un-redeemed.  The cash paid is public: the bonds are revealed."""
    if before["round"] != "claims" or after["round"] == "claims":
        return
    for new in after["players"]:
        old = _player(before, new["name"])
        was, now = old.get("cash"), new["cash"]
        if not isinstance(was, int) or not isinstance(now, int):
            continue
        claimed = len(new["claims"])
        if not claimed:
            continue
        unpaid = sum(new["unredeemed"].values()) - sum((old.get("unredeemed") or {}).values())
        text = agree(new["name"], f"pays {_money(was - now)} for the "
                     f"{_shares(claimed - unpaid)} claimed (2.7.2)")
        if unpaid:
            text += f"; {_shares(unpaid)} left un-redeemed (2.7.3)"
        yield text


def _contract_events(before: View, after: View) -> Iterator[str]:
    for new in after["players"]:
        old = _player(before, new["name"])
        if new["bond_returned"] and not old.get("bond_returned"):
            cities = ", ".join(new["cities"] or [])
            yield (f"{possessive(new['name'])} contract is fulfilled (4.3): bond "
                   f"{_money(new['bond'] or 0)} returned; the cities were {cities}")


def _failed_contracts(before: View, after: View) -> Iterator[str]:
    """At the end of the game every secret is out (5.1): the contracts not fulfilled, with
    their cities and the bond lost."""
    if after["round"] != "finished" or before["round"] == "finished":
        return
    for p in after["players"]:
        if p.get("contract") == "failed":
            cities = ", ".join(p["cities"] or [])
            yield (f"{possessive(p['name'])} contract failed (4.3): the cities were {cities}; "
                   f"the bond {_money(p['bond'] or 0)} is not returned (5.2.1)")


def _company_events(before: View, after: View) -> Iterator[str]:
    for initials, new in after["companies"].items():
        old = before["companies"][initials]
        if new["floated"] and not old["floated"]:
            yield f"{initials} floats"
        if new["formed"] and not old["formed"]:
            yield f"{initials} is formed"
        if new["director"] != old["director"] and new["director"] is not None:
            yield agree(new["director"], f"is the director of {initials}")


def events(before: View, after: View) -> list[str]:
    """What an action set off besides itself: bonds revealed, contracts fulfilled, companies
    floated or formed, directors changed, a new phase or round, the end of the game."""
    out = [*_bond_events(before, after), *_settlement_events(before, after),
           *_contract_events(before, after),
           *_company_events(before, after)]
    if after["phase"] != before["phase"]:
        out.append(f"Phase {after['phase']} begins")
    if after.get("bank_broken") and not before.get("bank_broken"):
        out.append("The bank is broken (5.1)")
    if round_title(after) != round_title(before):
        out.append(f"— {round_title(after)} —")
    if after["round"] == "finished" and before["round"] != "finished":
        scores = after.get("scores") or {}
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        reason = f" ({after['end_reason']})" if after.get("end_reason") else ""
        out.append(f"Final scores{reason}: "
                   + ", ".join(f"{name} {_money(score)}" for name, score in ranked))
        out.extend(_failed_contracts(before, after))
    return out


def narrate(ed: Edition, action: Mapping[str, Any], before: View, after: View) -> LogLine:
    """The action in words followed by the events it set off; ``action`` as its reader may
    see it (:func:`observed`)."""
    first = describe_action(ed, action, before, after)
    return LogLine(int(action.get("id", 0)), str(action["entity"]),
                   (first, *events(before, after)))


def _view(game: Game, moderator: bool) -> dict[str, Any]:
    return game.moderator_view() if moderator else game.view(None)


def observed(action: Mapping[str, Any], *, moderator: bool = False) -> dict[str, Any]:
    """``action`` as the table saw it when it was made (the moderator: whole); the one
    declaration of secrets decides (``rules/game/secrecy.py``)."""
    return as_made(action, moderator=moderator)


def game_log(game_from: Game, actions: list[dict[str, Any]], *,
             moderator: bool = False) -> Iterator[LogLine]:
    """Replay ``actions`` on ``game_from`` (a game at its start), narrating each one as the
    table saw it when it was made (the moderator: every action whole)."""
    game = game_from
    ed = game.rules.ed
    before = _view(game, moderator)
    for action in actions:
        game.process(action)
        after = _view(game, moderator)
        yield narrate(ed, observed(action, moderator=moderator), before, after)
        before = after
