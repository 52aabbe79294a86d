"""The turn model (``india1853.rules.game.turn.turn_model``) on the fixture games: every kind of
decision, the options as ``Game.process`` accepts them, JSON, and hidden information."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from india1853.errors import InputError
from india1853.rules.game import Game, Settings
from india1853.rules.game.turn import turn_model

GAMES = Path(__file__).resolve().parents[1] / "games"
# The 5-player game holds every kind of decision (a train sale between companies too).
FULL = "random-5p-seed2-shortened.json"
# Fields a log action may set freely (any whole bond, any agreed price: docs/actions.md).
FREE_AMOUNTS = ("place_bond", "offer_elephant")
KEYS = {"next_id", "round", "phase", "finished", "title", "headline", "active", "decisions",
        "tables", "view"}
OPTION_KEYS = {"action", "type", "label", "cost", "effect", "note", "rule", "ui"}


def _log(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GAMES / name).read_text())
    return data


def _kind(game: Game) -> str:
    st = game.state
    if st.pending:
        return st.pending[0].kind
    return st.turn.step if st.round == "operating" else st.round


def _bare(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k not in ("id", "created_at")}


def _sampled(name: str, every: int = 97, first: int = 2) -> Iterator[tuple[Game, dict[str, Any]]]:
    """The game before each sampled action of the log, with that action: the first ``first``
    of each (decision, action type) and every ``every``-th."""
    data = _log(name)
    seen: Counter[tuple[str, str]] = Counter()
    positions = Game.positions(Settings.from_json(data["settings"]), data["actions"])
    for i, (game, action) in enumerate(positions):
        key = (_kind(game), action["type"])
        if seen[key] < first or i % every == 0:
            yield game, action
        seen[key] += 1


def _decider(model: dict[str, Any], entity: str) -> str:
    return str(next(a["player"] for a in model["active"] if a["entity"] == entity))


def test_every_kind_of_decision_offers_what_the_log_played() -> None:
    """At the first moments of each kind of decision (bonds, claims, stock, each operating
    step, each pending question) and at regular points, the decider's model lists the action
    the log then took (with the id the game expects), every option has the agreed keys, and
    the model is JSON."""
    covered: set[tuple[str, str]] = set()
    for game, action in _sampled(FULL):
        entity = action["entity"]
        model = turn_model(game, None)
        player = _decider(model, entity)
        model = turn_model(game, player)
        json.dumps(model)
        assert set(model) >= KEYS and model["next_id"] == game.next_id()
        decision = next(d for d in model["decisions"] if d["entity"] == entity)
        assert decision["player"] == player and decision["rule"] and decision["options"]
        for option in decision["options"]:
            assert set(option) >= OPTION_KEYS
            assert option["action"]["id"] == action["id"] == game.next_id()
            assert option["type"] == option["action"]["type"]
            assert option["cost"] is None or isinstance(option["cost"], int)
            assert option["label"] and option["effect"]
        bare = [_bare(o["action"]) for o in decision["options"]]
        if action["type"] == "run_routes":
            # The log may have run any legal set; the model offers the router's optimum.
            assert any(b["type"] == "run_routes" for b in bare)
        elif action["type"] in FREE_AMOUNTS or "price" in action:
            assert any(b["type"] == action["type"] for b in bare)
        else:
            assert _bare(action) in bare, (action, bare[:5])
        covered.add((_kind(game), action["type"]))
    kinds = {k for k, _ in covered}
    assert kinds >= {"bonds", "claims", "stock", "lay_option", "track", "base", "run",
                     "dividend", "trains", "elephant_sale", "elephant_offer", "extra_or",
                     "discard_train", "credit_train", "train_sale"}


def test_an_option_is_accepted_by_process_as_it_stands() -> None:
    """The first option of each sampled decision is processed unchanged by the game."""
    for game, action in _sampled("random-3p-seed3.json", every=211, first=1):
        model = turn_model(game, _decider(turn_model(game, None), action["entity"]))
        option = model["decisions"][0]["options"][0]
        trial = game.fork()
        trial.process(option["action"])
        assert len(trial.log) == len(game.log) + 1


def _option(model: dict[str, Any], type_: str) -> dict[str, Any]:
    return next(o for d in model["decisions"] for o in d["options"] if o["type"] == type_)


def _at(name: str, count: int) -> Game:
    """The game after the first ``count`` actions of a fixture log (test_fixtures.py replays
    every log checked): a fork of one replay kept for the file's tests."""
    return _replayed(name, count).fork()


@cache
def _replayed(name: str, count: int) -> Game:
    data = _log(name)
    return Game.replay(Settings.from_json(data["settings"]), data["actions"][:count],
                       check=False)


def _first(name: str, pred: Any) -> Game:
    data = _log(name)
    for game, action in Game.positions(Settings.from_json(data["settings"]), data["actions"]):
        if pred(game, action):
            return game
    raise AssertionError("no such moment in the log")


def test_costs_and_effects_are_the_engines() -> None:
    """The cost of an option is the money the engine then moves: processing it changes the
    acting entity's cash by minus the cost (stock, tiles, bases, trains, dividends)."""
    checked: set[str] = set()
    for game, action in _sampled("random-3p-seed11.json", every=151):
        entity = action["entity"]
        model = turn_model(game, _decider(turn_model(game, None), entity))
        for option in model["decisions"][0]["options"][:6]:
            kind = option["type"]
            if option["cost"] is None or kind in ("place_bond", "offer_elephant",
                                                  "accept_offer", "repay_credit"):
                continue
            if kind == "buy_train" and "contribution" in option["action"]:
                continue
            trial = game.fork()
            before, posts = _cash(trial, entity), len(trial.state.frontier_paid)
            trial.process(option["action"])
            if len(trial.state.frontier_paid) != posts:
                continue  # a frontier bonus (4.1.14) is paid after the lays, not by the lay
            assert before - _cash(trial, entity) == option["cost"], option
            checked.add(kind)
    assert checked >= {"buy_share", "sell_shares", "lay_tile", "buy_train", "dividend"}


def _cash(game: Game, entity: str) -> int:
    if entity in game.state.companies:
        return game.state.companies[entity].cash
    return game.state.player(entity).cash


def test_dividend_options_tell_the_share_price_move() -> None:
    game = _first(FULL, lambda g, a: a["type"] == "dividend" and g.state.turn.revenue > 0)
    entity = game.active_entities()[0][0]
    model = turn_model(game, _decider(turn_model(game, None), entity))
    payout, withhold = _option(model, "dividend"), model["decisions"][0]["options"][1]
    assert payout["action"]["kind"] == "payout" and withhold["action"]["kind"] == "withhold"
    revenue = game.state.turn.revenue
    assert payout["ui"]["revenue"] == revenue
    assert payout["ui"]["per_share"] == revenue // 10
    assert withhold["cost"] == -revenue
    trial = game.fork()
    trial.process(payout["action"])
    assert trial.state.companies[entity].price_index == payout["ui"]["market_index_after"]
    trial = game.fork()
    trial.process(withhold["action"])
    assert trial.state.companies[entity].price_index == withhold["ui"]["market_index_after"]


def test_tile_and_run_options_carry_board_data() -> None:
    game = _first(FULL, lambda g, a: a["type"] == "lay_tile")
    entity = game.active_entities()[0][0]
    model = turn_model(game, _decider(turn_model(game, None), entity))
    lay = _option(model, "lay_tile")
    assert set(lay["ui"]) >= {"hex", "tile", "rotation", "exits"}
    assert lay["ui"]["hex"] == lay["action"]["hex"] and all(0 <= s < 6 for s in lay["ui"]["exits"])
    game = _first(FULL, lambda g, a: a["type"] == "run_routes")
    entity = game.active_entities()[0][0]
    model = turn_model(game, _decider(turn_model(game, None), entity))
    run = _option(model, "run_routes")
    routes = run["ui"]["routes"]
    assert routes and all(r["hexes"] and r["train"] for r in routes)
    assert run["ui"]["revenue"] == sum(r["revenue"] for r in routes)
    trial = game.fork()
    trial.process(run["action"])
    assert trial.state.turn.revenue == run["ui"]["revenue"]


def test_a_spectator_and_a_player_off_turn_get_no_options() -> None:
    game = _at(FULL, 600)
    entity = game.active_entities()[0][0]
    decider = _decider(turn_model(game, None), entity)
    assert turn_model(game, None)["decisions"] == []
    for name in game.settings.players:
        model = turn_model(game, name)
        assert bool(model["decisions"]) == (name == decider)
        assert model["tables"]["players"] and model["tables"]["companies"]


def test_unknown_viewer_is_refused() -> None:
    with pytest.raises(InputError, match="view"):
        turn_model(_at(FULL, 0), "Nobody")


def test_bonds_stay_secret_from_other_seats() -> None:
    """2.5.2: during the bonds stage no other seat sees a written bond, nor the cash that
    would betray it; the writer sees his own."""
    game = _at(FULL, 2)
    writers = {a["entity"] for a in game.log}
    for viewer in game.settings.players:
        model = turn_model(game, viewer)
        json.dumps(model)
        for p in model["tables"]["players"]:
            if p["name"] in writers and p["name"] != viewer:
                assert p["bond"] is None and p["cash"] is None
        assert all(d["player"] == viewer for d in model["decisions"])
        contract = model["tables"]["contract"]
        assert contract is None or contract["player"] == viewer
    for action in game.log:
        own = turn_model(game, action["entity"])["tables"]["contract"]
        assert own is not None and own["bond"] == action["amount"]


def test_contract_cities_stay_secret_in_claims_and_after() -> None:
    """2.5.4, 4.3.2: a bid's cities are seen by its player only, in the claims stage and
    later until the contract is fulfilled; the claimed shares are public."""
    data = _log(FULL)
    settings = Settings.from_json(data["settings"])
    rules = Game(settings).rules
    # Company names ("Madras Railway") and the preprinted large cities' tile ids ("Delhi") are
    # public words that happen to be city names.
    public = " ".join(c.name for c in rules.companies) + " " + " ".join(rules.ed.tiles)
    for count in (12, 30, 60, 200):
        game = _at(FULL, count)
        for viewer in settings.players:
            model = turn_model(game, viewer)
            assert all(d["player"] == viewer for d in model["decisions"])
            # The viewer's own options name every city he may still claim: the rest of the
            # model is what could leak another's bid.
            text = json.dumps({k: v for k, v in model.items() if k != "decisions"})
            mine = set(game.player(viewer).cities)
            for p in game.state.players:
                if p.name == viewer or p.bond_returned:
                    continue
                for city in set(p.cities) - mine:
                    if city in public:
                        continue
                    # A city named by another's secret bid appears nowhere in this model.
                    assert f'"{city}"' not in text and f" {city} " not in text, (count, city)
            for p in model["tables"]["players"]:
                if p["name"] != viewer:
                    returned = game.player(p["name"]).bond_returned
                    assert (p["cities"] is None) != returned


def test_the_end_has_scores_and_no_decisions() -> None:
    data = _log("greedy-3p-seed3.json")
    game = Game.from_log(data, check=False)
    for viewer in (None, *game.settings.players):
        model = turn_model(game, viewer)
        assert model["finished"] and model["decisions"] == [] and model["active"] == []
        assert model["tables"]["scores"] == data["final_scores"]
        assert "5.2" in model["headline"]
        json.dumps(model)


def test_tables_show_the_market_trains_and_bank() -> None:
    game = _at(FULL, 900)
    model = turn_model(game, None)
    tables = model["tables"]
    market = tables["market"]
    for c in tables["companies"]:
        if c["market_index"] is not None:
            assert c["initials"] in market["markers"][str(c["market_index"])]
            assert market["values"][c["market_index"]] == c["price"]
    assert tables["bank"] == game.state.bank
    roster = {t["type"]: t for t in tables["trains"]["roster"]}
    assert roster["3"]["starts_phase"] == 3 and roster["3"]["price"] > 0
    assert tables["trains"]["phase"] == game.state.phase
    for p in tables["players"]:
        for initials in p["director_of"]:
            assert game.state.companies[initials].director == p["name"]


def test_the_public_tables_are_worked_out_once_per_state_and_alike_for_every_viewer() -> None:
    """Every viewer of one state shares the public tables (companies, market, trains) and
    who decides, worked out once (issue 21 item 9: four pages after every action); each
    viewer's model is what a game that never built another viewer's gives, reading a model
    changes nothing kept, and the next state gets its own."""
    game = _at(FULL, 900)
    viewers = [*game.settings.players, None]
    models = {v: turn_model(game, v) for v in viewers}
    ann, bob = models[viewers[0]], models[viewers[1]]
    for key in ("companies", "market", "trains"):
        assert ann["tables"][key] is bob["tables"][key]
    assert ann["active"] is bob["active"]
    for v in viewers:
        alone = game.fork()  # the same state, and nothing worked out for it yet
        assert turn_model(alone, v) == models[v] == turn_model(game, v)
    game.process(_log(FULL)["actions"][900])
    after = turn_model(game, None)
    assert after["tables"]["companies"] is not ann["tables"]["companies"]
    assert after == turn_model(game.fork(), None)


FIRST_FIXTURES = sorted((GAMES / "first").glob("*.json"))
# The first-edition fixtures whose round titles the titles test reads at every position.
TITLED = FIRST_FIXTURES[:1]


@dataclass
class _Walk:
    """One unchecked walk of a first-edition log, shared by the tests below (each walked the
    log itself): a fork of the game before each action one of them looks at - the first of
    each kind of decision, and every position of the secret bids - with that action; the game
    after the log's last action; for a ``TITLED`` log, the turn model's title at every
    position."""

    stops: list[tuple[Game, dict[str, Any]]] = field(default_factory=list)
    end: Game | None = None
    titles: set[str] = field(default_factory=set)


@cache
def _walked(path: Path) -> _Walk:
    data = json.loads(path.read_text())
    walk = _Walk()
    kinds: set[str] = set()
    settings = Settings.from_json(data["settings"])
    game = Game(settings)
    for game, action in Game.positions(settings, data["actions"]):
        if path in TITLED:
            walk.titles.add(turn_model(game, None)["title"])
        kind = _kind(game)
        if kind not in kinds or game.state.round == "bids":
            kinds.add(kind)
            walk.stops.append((game.fork(), action))
    walk.end = game
    return walk


@pytest.mark.parametrize("path", FIRST_FIXTURES[:4], ids=lambda p: p.stem)
def test_first_edition_games_give_a_model_at_every_kind_of_decision(path: Path) -> None:
    """The first edition and its variants (issue 12) through the same turn model: secret bids
    (14.5: another seat's claims stay out of the model until every bid is in), Company Credits,
    train sales to the bank; every option's action is one ``process`` accepts."""
    walk = _walked(path)
    kinds: set[str] = set()
    for game, action in walk.stops:
        kind = _kind(game)
        if kind not in kinds or game.state.round == "bids":
            kinds.add(kind)
            for viewer in [None, *game.settings.players]:
                model = turn_model(game, viewer)
                assert set(model) >= KEYS
                json.dumps(model)
                if game.state.round == "bids":
                    for row in model["tables"]["players"]:
                        if row["name"] != viewer and row["bond_placed"]:
                            assert row["cities"] is None and row["claims"] is None
                            assert row["bond"] is None and row["cash"] is None
            who = game.decider(str(action["entity"]))
            decisions = turn_model(game, who)["decisions"]
            assert decisions and all(d["options"] for d in decisions)
            assert all(set(o) >= OPTION_KEYS for d in decisions for o in d["options"])
    # The walk is over: the game is after the log's last action.
    end = walk.end
    assert end is not None
    # Contract bids unless the game starts without them (Simplified Game, Alternative Rules 1.0).
    assert "bids" in kinds or end.rules.dealt_start or end.rules.share_by_share_start
    assert turn_model(end, None)["finished"]



# A second-edition rule number (2.x-5.x) in a rule field or a citation of a sentence.
SECOND_NUMBER = re.compile(r"(?<![\d.])[2-5](?:\.\d+)+(?![\d.])|^[2-5]$")
CITATION = re.compile(r"rule ([^:;()]+)|\(([\d.,/ \-]+)\)")


def _citations(model: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, citation) for every rule the model names: each rule field of the active
    entities, decisions, options and missing options, and each citation in their sentences, the
    headline and the contract."""
    yield from (("headline", c) for m in CITATION.finditer(model["headline"])
                for c in m.groups() if c)
    contract = model["tables"]["contract"]
    if contract is not None:
        yield "contract", contract["rule"]

    def walk(where: str, item: dict[str, Any]) -> Iterator[tuple[str, str]]:
        yield where, str(item.get("rule", ""))
        for key in ("what", "effect", "note", "reason"):
            for m in CITATION.finditer(str(item.get(key, ""))):
                yield from ((f"{where}.{key}", c) for c in m.groups() if c)
        for key in ("options", "unavailable"):
            for o in item.get(key, []):
                yield from walk(f"{where}.{key}", o)

    for a in model["active"]:
        yield from walk("active", a)
    for d in model["decisions"]:
        yield from walk("decision", d)


@pytest.mark.parametrize("path", FIRST_FIXTURES, ids=lambda p: p.stem)
def test_a_first_edition_turn_model_cites_the_first_editions_rules(path: Path) -> None:
    """Issue 12: a first-edition game cites 11-41 (dealing rounds 20-21, railway rounds 31-35,
    the end 40-41), never a second-edition number, at every kind of decision; each cited rule
    keeps a summary where the first edition's summaries have one."""
    seen: set[str] = set()
    cited: set[str] = set()

    def look(game: Game, action: dict[str, Any] | None) -> None:
        kind = _kind(game)
        if kind not in seen:
            seen.add(kind)
            who = game.decider(str(action["entity"])) if action is not None else None
            for viewer in {who, None}:
                model = turn_model(game, viewer)
                for where, rule in _citations(model):
                    assert not SECOND_NUMBER.search(rule), (kind, where, rule)
                    cited.add(rule)

    walk = _walked(path)
    for game, action in walk.stops:
        look(game, action)
    assert walk.end is not None
    look(walk.end, None)  # the end: the walk is over, the game after the log's last action
    assert {"20", "21.1", "31"} <= cited


@pytest.mark.parametrize("path", TITLED, ids=lambda p: p.stem)
def test_a_first_edition_game_names_its_rounds_as_the_1989_rules_do(path: Path) -> None:
    """The 1989 rules play Dealing Rounds (SECTION 2, 20) and Railway Rounds (SECTION 3, 30),
    not Stock and Operating Rounds: the turn model's titles say so."""
    titles = _walked(path).titles
    words = " ".join(titles)
    assert "Dealing Round 1" in titles and "Railway Round 1" in titles
    assert "Stock Round" not in words and "Operating Round" not in words
    second = Game(Settings(("Ann", "Bob", "Cat"), seed=1))
    assert "Dealing Round" not in turn_model(second, None)["title"]


def test_a_second_edition_turn_model_keeps_the_second_editions_numbers() -> None:
    game = Game(Settings(("Ann", "Bob", "Cat", "Dan"), seed=1))
    model = turn_model(game, game.active_entities()[0][0])
    assert model["decisions"][0]["rule"] == "2.5.2"
    assert all(o["rule"] == "2.5.2" for o in model["decisions"][0]["options"])
    assert model["headline"].endswith("(2.5.2)")
