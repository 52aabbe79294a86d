"""The game log in words: "EIR lays tile 5 on H24 (Patna), pays £60".

The engine reports what each action set off (``rules/game/events.py``: ``Game.process``
returns the events); :func:`narrate` tells one action and its events: the action itself (the
money it moved is the acting entity's payments among the events), then what it set off - bonds
revealed, the Elephant's new holder, the claims paid for, contracts fulfilled, companies
floated or formed, new directors, a new phase or round, the bank broken, the end of the game.
:func:`game_log` replays a whole log.  The narration reads no view: only the action, its events
and the edition's names.

Secrets: the narration tells an action as the table saw it when it was made, its secret fields
withheld as the engine's one declaration of secrets says (``rules/game/secrecy.py``):
:func:`narrate` is given the action so observed (:func:`observed`), and reads the events so
learnt (``secrecy.event_as_made``).  The reveals are events of their own: every bond when all
are in (2.5.3), a bid's cities when the contract is fulfilled (4.3), every secret at the end
(5.1).  ``moderator``: every action and event whole.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from india1853.data.model import Edition
from india1853.rules.game.events import Event, net_change, net_paid
from india1853.rules.game.game import Game
from india1853.rules.game.secrecy import as_made, event_as_made
from india1853.rules.game.steps import STEPS
from india1853.rules.game.turn.decisions import title
from india1853.rules.game.wording import agree, possessive, verb

View = Mapping[str, Any]
Events = Sequence[Event]


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


def _pays(amount: int) -> str:
    return f", pays {_money(amount)}" if amount > 0 else ""


def _shares(n: int) -> str:
    return "a share" if n == 1 else f"{n} shares"


def _first(events: Events, kind: str) -> Event | None:
    return next((e for e in events if e.kind == kind), None)


def _of_kind(events: Events, kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def round_title(view: View) -> str:
    """The round in words, as the turn model titles it, in the log's sentence case ("Stock
    round 2", "Operating round 3.1", "Contract bids: bonds (2.5.2)")."""
    text = title(view).replace(" Round", " round")
    # A stage of the contract bids is told with its rule beside its title.
    step = STEPS.get(str(view["round"]))
    return f"{text} ({step.rule})" if step is not None and step.secret else text


def _round_title(ed: Edition, round_: Mapping[str, Any]) -> str:
    """The title of a round as a ``round`` event names it (its kind and numbers)."""
    return round_title({"edition": ed.name, **round_})


def _describe_player_action(a: Mapping[str, Any], events: Events) -> str:
    """``a`` as observed (secrecy.py): a secret field still hidden is missing."""
    who, kind = a["entity"], a["type"]
    spent = net_paid(events, who)
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
        rejected = _first(events, "cards_rejected")
        count = int(rejected.fields["count"]) if rejected is not None else 0
        return agree(who, f"rejects {count} card(s)")
    if kind == "play_card":
        target = a.get("hex") or a.get("city")
        return agree(who, f"actions {a['card']}" + (f" on {target}" if target else ""))
    if kind == "pass":
        passed = _first(events, "passed")
        step = STEPS.get(str(passed.fields["step"])) if passed is not None else None
        return agree(who, step.declined if step is not None else "passes")
    return f"{who}: {kind}"


def _describe_company_action(ed: Edition, a: Mapping[str, Any], events: Events) -> str:
    co, kind = a["entity"], a["type"]
    spent = net_paid(events, co)
    if kind == "choose_lay_option":
        return f"{co} chooses lay option {a['option']} (4.1.3)"
    if kind == "lay_tile":
        return f"{co} lays tile {a['tile']} on {place_name(ed, a['hex'])}{_pays(spent)}"
    if kind == "promote_tile":
        return f"{co} upgrades {place_name(ed, a['hex'])} to tile {a['tile']}{_pays(spent)}"
    if kind == "place_base":
        return f"{co} places a base on {place_name(ed, a['hex'])}{_pays(spent)}"
    if kind == "run_routes":
        return _describe_run(co, a, events)
    if kind == "dividend":
        return _describe_dividend(co, a, events)
    if kind == "buy_train":
        return _describe_train(co, a, spent)
    if kind == "discard_train":
        discarded = _first(events, "train_discarded")
        name = discarded.fields["name"] if discarded is not None else a["train"]
        return f"{co} returns a '{name}' train to the bank (4.8.6)"
    if kind == "repay_credit":
        return f"{co} pays for the train bought on credit{_pays(spent)}"
    if kind == "return_credit_train":
        return f"{co} returns the train bought on credit (4.8.10)"
    if kind == "accept_offer":
        return f"{co} accepts the offer for its train"
    if kind == "reject_offer":
        return f"{co} rejects the offer for its train"
    if kind == "pass":
        passed = _first(events, "passed")
        kind = str(passed.fields["step"]) if passed is not None else ""
        step = STEPS.get(kind)
        return f"{co} passes ({step.name if step is not None else kind or 'its turn'})"
    return f"{co}: {kind}"


def _describe_run(co: str, a: Mapping[str, Any], events: Events) -> str:
    """The run's revenue (4.6.2) and, apart, the mail paid to the company at once (4.6.6)."""
    routes = a.get("routes") or []
    if not routes:
        return f"{co} runs no train"
    trains = ", ".join(f"'{r.get('train')}'" + (" with the mail" if r.get("mail") else "")
                       for r in routes)
    run = _first(events, "run")
    amount = f" for {_money(int(run.fields['revenue']))}" if run is not None else ""
    mail = -net_paid(events, co)
    extra = f"; the mail pays {co} {_money(mail)}" if mail > 0 else ""
    return (f"{co} runs {len(routes)} train{'s' if len(routes) != 1 else ''} ({trains})"
            f"{amount}{extra}")


def _describe_dividend(co: str, a: Mapping[str, Any], events: Events) -> str:
    dividend = _first(events, "dividend")
    revenue = int(dividend.fields["revenue"]) if dividend is not None else 0
    verb = "pays out" if a["kind"] == "payout" else "withholds"
    text = f"{co} {verb} {_money(revenue)}"
    moved = net_change(events, "price", co)
    if moved is not None:
        text += f"; share price {_money(moved[0])} → {_money(moved[1])}"
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


def describe_action(ed: Edition, action: Mapping[str, Any], events: Events) -> str:
    """One sentence for ``action`` as observed (secrecy.py), given the events it set off."""
    if action["type"] in ("undo", "redo"):
        # The entity is the one whose action is taken back (or put back), not a person
        # undoing: "Greedy2 undos" read as if the bot had chosen to.
        done = "taken back" if action["type"] == "undo" else "put back (redo)"
        return f"{possessive(action['entity'])} last action is {done}"
    if action["entity_type"] == "company":
        return _describe_company_action(ed, action, events)
    return _describe_player_action(action, events)


def _bond_events(events: Events) -> Iterator[str]:
    for revealed in _of_kind(events, "bonds_revealed"):
        bonds = ", ".join(f"{name} {_money(bond)}" for name, bond in revealed.fields["bonds"])
        yield f"Bonds revealed (2.5.3): {bonds}"
    holder = net_change(events, "elephant", "")
    if holder is not None and holder[1]:
        yield agree(holder[1], "holds the Elephant")


def _settlement_events(events: Events) -> Iterator[str]:
    """2.7.2-2.7.3: when the last bid ends, every player pays par for the shares claimed; what
    he cannot afford stays un-redeemed.  The cash paid is public: the bonds are revealed."""
    for settled in _of_kind(events, "claims_settled"):
        claimed, unpaid = int(settled.fields["claimed"]), int(settled.fields["unredeemed"])
        text = agree(settled.entity, f"pays {_money(int(settled.fields['paid']))} for the "
                     f"{_shares(claimed - unpaid)} claimed (2.7.2)")
        if unpaid:
            text += f"; {_shares(unpaid)} left un-redeemed (2.7.3)"
        yield text


def _contract_events(events: Events) -> Iterator[str]:
    for done in _of_kind(events, "contract_fulfilled"):
        cities = ", ".join(done.fields["cities"])
        yield (f"{possessive(done.entity)} contract is fulfilled (4.3): bond "
               f"{_money(int(done.fields['bond']))} returned; the cities were {cities}")


def _failed_contracts(events: Events) -> Iterator[str]:
    """At the end of the game every secret is out (5.1): the contracts not fulfilled, with
    their cities and the bond lost."""
    for failed in _of_kind(events, "contract_failed"):
        cities = ", ".join(failed.fields["cities"])
        yield (f"{possessive(failed.entity)} contract failed (4.3): the cities were {cities}; "
               f"the bond {_money(int(failed.fields['bond']))} is not returned (5.2.1)")


def _company_events(ed: Edition, events: Events) -> Iterator[str]:
    """Each company in the edition's order: floated, formed, a new director."""
    floated = {e.entity for e in events if e.kind == "floated"}
    formed = {e.entity for e in events if e.kind == "formed"}
    for company in ed.companies:
        initials = company.initials
        if initials in floated:
            yield f"{initials} floats"
        if initials in formed:
            yield f"{initials} is formed"
        director = net_change(events, "director", initials)
        if director is not None and director[1] is not None:
            yield agree(director[1], f"is the director of {initials}")


def consequences(ed: Edition, events: Events) -> list[str]:
    """What an action set off besides itself: bonds revealed, contracts fulfilled, companies
    floated or formed, directors changed, a new phase or round, the end of the game."""
    out = [*_bond_events(events), *_settlement_events(events), *_contract_events(events),
           *_company_events(ed, events)]
    phase = net_change(events, "phase", "")
    if phase is not None:
        out.append(f"Phase {phase[1]} begins")
    if _first(events, "bank_broken") is not None:
        out.append("The bank is broken (5.1)")
    round_ = net_change(events, "round", "")
    if round_ is not None and _round_title(ed, round_[1]) != _round_title(ed, round_[0]):
        out.append(f"— {_round_title(ed, round_[1])} —")
    over = _first(events, "game_over")
    if over is not None:
        scores: dict[str, int] = dict(over.fields["scores"])
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        reason = f" ({over.fields['reason']})" if over.fields.get("reason") else ""
        out.append(f"Final scores{reason}: "
                   + ", ".join(f"{name} {_money(score)}" for name, score in ranked))
        out.extend(_failed_contracts(events))
    return out


def narrate(ed: Edition, action: Mapping[str, Any], events: Events, *,
            moderator: bool = False) -> LogLine:
    """The action in words followed by what it set off; ``action`` as its reader may see it
    (:func:`observed`), ``events`` as ``Game.process`` returned them (their secret fields are
    withheld here unless for the ``moderator``)."""
    told = [event_as_made(e, moderator=moderator) for e in events]
    first = describe_action(ed, action, told)
    return LogLine(int(action.get("id", 0)), str(action["entity"]),
                   (first, *consequences(ed, told)))


def observed(action: Mapping[str, Any], *, moderator: bool = False) -> dict[str, Any]:
    """``action`` as the table saw it when it was made (the moderator: whole); the one
    declaration of secrets decides (``rules/game/secrecy.py``)."""
    return as_made(action, moderator=moderator)


def game_log(game_from: Game, actions: list[dict[str, Any]], *,
             moderator: bool = False) -> Iterator[LogLine]:
    """Process ``actions`` on ``game_from`` (a game at its start), narrating each one as the
    table saw it when it was made (the moderator: every action whole) from its events."""
    game = game_from
    ed = game.rules.ed
    for action in actions:
        events = game.process(action)
        yield narrate(ed, observed(action, moderator=moderator), events, moderator=moderator)
