"""Helpers for the game-engine tests: acting, invariants, scripted starts."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from functools import cache
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import jsonschema
import pytest

from india1853.rules.game import Game, Settings
from india1853.rules.game.scoring import bonds_held


def act(game: Game, type_: str, entity: str, **fields: Any) -> None:
    game.process(game.action(type_, entity, **fields))


def check_invariants(game: Game) -> None:
    """The invariants of the issue, after any action."""
    st, rules = game.state, game.rules
    treasuries = sum(c.cash for c in st.companies.values())
    credits = game.rules.policy.company_credits
    # 23.1 (first edition): the companies hold Company Credits, a currency of their own; the
    # personal money (bank, players, bonds) is conserved apart from them.
    total = (st.bank + sum(p.cash for p in st.players)
             + (0 if credits else treasuries) + bonds_held(st))
    assert total == st.start_total, "money is not conserved"
    if credits:
        assert treasuries == st.credits, "credits are not conserved"
    else:
        assert st.credits == 0, "credits in an edition whose companies hold cash"
    if st.round != "finished":
        assert st.bank > 0 or st.bank_broken, "the bank is negative outside the end"
    for initials, co in st.companies.items():
        held = sum(p.shares.get(initials, 0) for p in st.players)
        # MIK 2: a Director's Share actioned adds two shares, one sold to the discard stack
        # takes two away.
        assert co.ipo + co.pool + held == rules.shares_per_company + co.kit_shares, initials
        assert co.ipo >= 0 and co.pool >= 0
        for p in st.players:
            assert 0 <= p.unredeemed.get(initials, 0) <= p.shares.get(initials, 0)
        if co.director is not None:
            assert st.player(co.director).shares[initials] >= rules.director_shares
    check_kit(game)
    supply = st.board.supply()
    assert all(n >= 0 for n in supply.values()), "a tile count exceeds the manifest"
    check_trains(game)
    check_base_tokens(game)


def check_kit(game: Game) -> None:
    """MIK 2: each of the 21 cards is in exactly one place - the stack, the discard stack, a
    hand or a player's Director's Shares - and so is each company's own certificate once
    taken (``DS:<company>:0``); the Director's Shares held are the shares they stand for."""
    st, rules = game.state, game.rules
    kit = st.kit
    if rules.kit is None:
        assert kit is None
        return
    assert kit is not None
    places = [*kit.deck, *kit.discard, *(c for h in kit.hands.values() for c in h),
              *(c for d in kit.directors.values() for c in d)]
    assert len(places) == len(set(places)), "a kit card is in two places"
    assert sorted(c for c in places if not c.endswith(":0")) == sorted(
        c.id for c in rules.kit.cards), "the kit's 21 cards are not all there"
    for p in st.players:
        for card in kit.directors.get(p.name, []):
            initials = card.split(":")[1]
            held = sum(1 for c in kit.directors[p.name] if c.split(":")[1] == initials)
            assert p.shares.get(initials, 0) >= rules.director_shares * held, (p.name, card)
        assert len(kit.hands.get(p.name, [])) <= rules.table.certificate_limit


# The inputs on which each check of a game last passed (see ``_passed_on``).
_LAST_PASSED: WeakKeyDictionary[Game, dict[str, tuple[object, ...]]] = WeakKeyDictionary()


def _passed_on(game: Game, check: str, key: tuple[object, ...],
               run: Callable[[Game], None]) -> None:
    """``run(game)``, a check that is a pure function of ``key`` (everything it reads of the
    state), unless it last passed on this game with the same key: a random game's trains and
    bases change on a few of its thousands of actions.  A key's first item is compared by
    identity (an immutable board), the rest by value."""
    last = _LAST_PASSED.setdefault(game, {})
    before = last.get(check)
    if before is not None and before[0] is key[0] and before[1:] == key[1:]:
        return
    run(game)
    last[check] = key


TRAIN_PLACES = frozenset({"bank", "company", "pool", "removed"})


def check_trains(game: Game) -> None:
    """Every train card is in exactly one place (the bank, a company, the pool of returned
    trains, out of the game) and, counting every place, each type has exactly its TABLE 5
    cards, plus the 2.8.4 extras once a minor formed in the first stock round, plus the extra
    '2/1M' cards made under 4.8.17.  Obsolete trains are out of the game (4.8.4); a company
    holds more than the phase's limit only while it has excess trains to return (4.8.5-4.8.6).
    """
    st = game.state
    # The rules first (the item compared by identity): the cards are a new tuple each time,
    # compared by value with the rest.
    key = (game.rules,
           tuple((t.id, t.name, t.where, t.owner, t.extra, t.runs_as) for t in st.trains),
           tuple((i, co.formed) for i, co in st.companies.items()), st.minor_trains_added,
           st.operating_round >= 1, st.phase,
           tuple(sorted(p.entity for p in st.pending if p.kind == "discard_train")))
    _passed_on(game, "trains", key, _check_trains)


def _check_trains(game: Game) -> None:
    st, rules = game.state, game.rules
    ids = [t.id for t in st.trains]
    assert len(ids) == len(set(ids)), "a train card is in two places"
    for t in st.trains:
        assert t.where in TRAIN_PLACES, (t.id, t.where)
        if t.where == "company":
            assert t.owner in st.companies and st.companies[t.owner].formed, t.id
        else:
            assert t.owner is None, t.id
    added = st.minor_trains_added
    names = Counter(t.name for t in st.trains)
    extras = Counter(t.name for t in st.trains if t.extra)
    expected: dict[str, int] = {}
    expected_extras: dict[str, int] = {}
    for spec in rules.ed.trains:
        expected[spec.name] = spec.total(added)
        expected_extras[spec.name] = spec.total(added) - spec.count
    for dual in rules.ed.trains.dual_options:
        first, second = dual.trains
        assert expected.pop(second) == (dual.count if added else 0)  # '1M': the dual cards
        expected_extras.pop(second)
        if added:
            # The first type's cards all became dual cards (2.8.4, 4.8.16); 4.8.17 adds more.
            assert expected[first] == dual.count
            made = names[dual.card] - dual.count
            assert made >= 0, f"a '{dual.card}' card is missing"
            assert made == 0 or (dual.first_or_unlimited and st.operating_round >= 1)
            expected[dual.card] = dual.count + made
            expected_extras[dual.card] = expected_extras[first] + made
            expected[first] = expected_extras[first] = 0
    for name in set(names) | set(expected):
        assert names[name] == expected.get(name, 0), f"'{name}' cards: {names[name]}"
        assert extras[name] == expected_extras.get(name, 0), f"extra '{name}' cards"
    obsolete = {n for p in rules.ed.phases if p.number <= st.phase for n in p.trains_obsolete}
    for t in st.trains:
        assert t.runs_as not in obsolete or t.where == "removed", f"{t.id} is obsolete (4.8.4)"
    limit = rules.phase(st.phase).train_limit
    discarding = {p.entity for p in st.pending if p.kind == "discard_train"}
    for initials in st.companies:
        if limit is not None and initials not in discarding:
            assert len(st.company_trains(initials)) <= limit, f"{initials} exceeds the limit"


def check_base_tokens(game: Game) -> None:
    """Each company's base tokens (TABLE 1's count) are on its charter or on the board: on the
    board, one on each home the company formed with (3.3.2) and one for each base it placed
    (4.4), each on a different tile (4.4.5), no station holding more than its spaces; never
    more than the count.  Its market token is on the stock market once it formed (3.3.1)."""
    st = game.state
    key = (st.board, tuple((co.formed, co.kind, co.extra_bases, co.price_index is not None)
                           for co in st.companies.values()))
    _passed_on(game, "base_tokens", key, _check_base_tokens)


def _check_base_tokens(game: Game) -> None:
    st, rules = game.state, game.rules
    board = st.board
    for spec in rules.companies:
        co = st.companies[spec.initials]
        on_board = board.company_bases(spec.initials)
        hexes = [b.hex for b in on_board]
        assert len(hexes) == len(set(hexes)), f"{spec.initials} has two bases on one tile"
        # A conditional home is the BBCI's as a major (2.6.2); one that exists only in the
        # first edition's Alternative Rules 3.0 is lost if another base took it first.
        homes = [h for h in spec.homes
                 if h.condition is None or (co.kind == "major" and (
                     h.variant is None or any(b.hex == h.hex for b in on_board)))]
        placed = len(homes) + co.extra_bases if co.formed else 0
        assert len(on_board) == placed, f"{spec.initials}: {len(on_board)} bases on the board"
        assert len(on_board) <= spec.base_tokens, f"{spec.initials} has too many bases"
        assert (co.price_index is not None) == co.formed, f"{spec.initials}'s market token"
    occupied = Counter((b.hex, b.station) for b in board.bases if b.station is not None)
    for (hex, station), n in occupied.items():
        found = board.tile_at(hex)
        assert found is not None, f"a base on {hex}, which has no station"
        slots = {s.id: s.slots for s in found[0].stations}
        assert n <= slots.get(station, 0), f"{n} bases on {hex} {station}"


def dick_jeff_lou() -> Game:
    """The rulebook's example (2.5): Jeff bonds £100, Lou £90, Dick £130."""
    game = Game(Settings(("Jeff", "Lou", "Dick"), seed=1))
    act(game, "place_bond", "Jeff", amount=100)
    act(game, "place_bond", "Lou", amount=90)
    act(game, "place_bond", "Dick", amount=130)
    return game


def dick_jeff_lou_bids(game: Game) -> None:
    """The example's cities, completed for Jeff and Lou."""
    for entity, city, company in [
        ("Dick", "Calcutta", "EIR"), ("Jeff", "Bombay", "BBCI"), ("Lou", "Lahore", "NWR"),
        ("Dick", "Patna", "EIR"), ("Jeff", "Ajmer", "BBCI"), ("Lou", "Peshawar", "NWR"),
        ("Dick", "Delhi", "EIR"), ("Jeff", "Ahmadabad", "BBCI"), ("Lou", "Rawalpindi", "NWR"),
        ("Dick", "Jaipur", "BBCI"), ("Jeff", "Karachi", "NWR"), ("Lou", "Multan", "NWR"),
    ]:
        act(game, "claim_city", entity, city=city, company=company)
    for entity in ("Dick", "Jeff", "Lou"):
        act(game, "pass", entity)


def claim_in_turn(game: Game, claims: dict[str, list[tuple[str, str]]], *,
                  to_the_end: bool = False) -> None:
    """Each player in turn claims his next listed city, or passes when his list is done; until
    every list is done or, ``to_the_end``, until the claims stage ends."""
    while game.state.round == "claims" and (to_the_end or any(claims.values())):
        name = game.active_entities()[0][0]
        if claims[name]:
            city, company = claims[name].pop(0)
            act(game, "claim_city", name, city=city, company=company)
        else:
            act(game, "pass", name)


def four_player_start(seed: int = 3, variants: tuple[str, ...] = ()) -> Game:
    """A 4-player game where the EIR (major) and the MSM (minor) float from the bids and the
    first stock round ends at once; the game stands at the EIR's first operating turn."""
    game = Game(Settings(("Ann", "Bob", "Cat", "Dan"), seed=seed, variants=variants))
    for name, amount in (("Ann", 110), ("Bob", 100), ("Cat", 80), ("Dan", 60)):
        act(game, "place_bond", name, amount=amount)
    script = [
        ("Ann", "Calcutta", "EIR"), ("Bob", "Madras", "MSM"), ("Cat", "Delhi", "EIR"),
        ("Dan", "Mysore", "MSM"), ("Ann", "Patna", "EIR"), ("Bob", "Bangalore", "MSM"),
        ("Cat", "Lucknow", "EIR"), ("Dan", "Hyderabad", "MSM"), ("Ann", "Jaipur", "GIP"),
        ("Bob", "Bombay", "MSM"), ("Cat", "Ajmer", "GIP"), ("Dan", "Benares", "EIR"),
    ]
    for name, city, company in script:
        act(game, "claim_city", name, city=city, company=company)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        act(game, "pass", name)
    return game


def finish_first_stock_round(game: Game) -> None:
    while game.state.round == "stock":
        act(game, "pass", game.active_entities()[0][0])
    act(game, "pass", game.state.elephant or "")


def check_replay(game: Game) -> None:
    """The issue's replay test for a scripted game: the game rebuilt from its JSON log file,
    with and without the legality checks, equals the played game (state, views, log)."""
    import json

    data = json.loads(json.dumps(game.to_log()))
    for rebuilt in (Game.from_log(data), Game.from_log(data, check=False)):
        assert rebuilt.state == game.state
        assert rebuilt.moderator_view() == game.moderator_view()
        assert rebuilt.log == game.log and rebuilt.next_id() == game.next_id()


def soak_but(cases: Sequence[Any], kept: Collection[Any],
             ids: Callable[[Any], str]) -> list[Any]:
    """``cases`` as pytest parameters: those in ``kept`` run in the unit suite (``make test``),
    every other one is marked ``soak`` and runs in ``make soak`` only (a tuple case is its
    arguments)."""
    return [pytest.param(*(case if isinstance(case, tuple) else (case,)), id=ids(case),
                         marks=() if case in kept else pytest.mark.soak)
            for case in cases]


@cache
def action_schema() -> jsonschema.Draft202012Validator:
    """A validator of the published schema, docs/action.schema.json (itself checked)."""
    schema = json.loads((Path(__file__).resolve().parents[2] / "docs" / "action.schema.json")
                        .read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


# The fields every branch of docs/action.schema.json declares alike, {"type": "integer",
# "minimum": 0} and nothing else refers to: an action is valid exactly when it is valid with
# them set to 0 and they are such integers (checked in ``schema_valid_actions``).
_COUNTERS = ("id", "created_at")


def schema_valid_actions(path: Path) -> list[dict[str, Any]]:
    """The actions of a game log, each one validated against the published schema.  The
    schema's validation is slow (a oneOf over every action type), so each distinct action
    is validated once with its counters (``id``, ``created_at``) set to 0, and every action's
    counters are checked against their schema (non-negative integers) on their own."""
    actions: list[dict[str, Any]] = json.loads(path.read_text())["actions"]
    validator = action_schema()
    counters = {"type": "integer", "minimum": 0}
    for branch in validator.schema["oneOf"]:
        assert all(branch["properties"][k] == counters for k in _COUNTERS), branch["title"]
    shapes: dict[str, dict[str, Any]] = {}
    for action in actions:
        for k in _COUNTERS:
            value = action.get(k)
            assert isinstance(value, int) and not isinstance(value, bool) and value >= 0, (
                k, action)
        shape = {**action, **{k: 0 for k in _COUNTERS}}
        shapes.setdefault(json.dumps(shape, sort_keys=True), shape)
    for shape in shapes.values():
        validator.validate(shape)
    return actions
