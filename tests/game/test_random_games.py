"""Complete games of random legal moves: invariants after every action, replay from the log."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import warnings
from pathlib import Path
from typing import Any

import pytest
from helpers import check_invariants, soak_but
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from india1853.board.graph import TrackGraph
from india1853.errors import RuleError
from india1853.rules import construction as con
from india1853.rules.game import Game, Settings, board_port
from india1853.rules.game.legal import legal_actions
from india1853.rules.game.random_play import random_action
from india1853.rules.game.shares import price
from india1853.rules.game.state import CompanyState, TrainState
from india1853.rules.router import best_run
from india1853.rules.routes import Train

MAX_ACTIONS = 8000
# Random first-edition games run longer (the shorter the bank, the more players: up to ~8,100
# actions seen with six players in the Simplified Game), so they get twice the limit.
FIRST_EDITION_MAX_ACTIONS = 2 * MAX_ACTIONS
# Random moves can kill a game's economy: players sell everything, the running companies can
# neither afford a tile nor find a run, no new company can float, and the bank never breaks
# (soak game 72: stuck in Phase 2 for ever).  The rules have no end for that.  Once nothing
# has been built, bought from the bank or earned for DEADLOCK_PROBE actions, the game is
# tested for that deadlock (``assert_deadlock``, proved from the state) and stops if it is
# in one; after STALL_WINDOW such actions it must be in one (docs/rulings.md, "Random games
# that never end").  So an engine bug that blocks play fails the soak, as does any game
# reaching MAX_ACTIONS.
DEADLOCK_PROBE = 500
STALL_WINDOW = 4000
PROGRESS = frozenset({"lay_tile", "promote_tile", "place_base"})


def progress(game: Game, action: dict[str, Any]) -> bool:
    """Whether the action built, bought a train from the bank, or earned.  A train sold between
    companies is no progress: it moves money between treasuries, and random companies can
    trade trains back and forth for ever."""
    kind: str = action["type"]
    if kind in PROGRESS:
        return True
    if kind == "buy_train":
        return bool(action.get("source", "bank") == "bank")
    return kind == "run_routes" and game.state.turn.revenue > 0


def play_checked(seed: int, players: int, *, stall_window: int = STALL_WINDOW,
                 edition: str = "second", variants: tuple[str, ...] = (),
                 max_actions: int = MAX_ACTIONS) -> Game:
    """A complete game, or one stopped in a proven deadlock, with the invariants asserted
    after every action and the views checked for secrets every 97 actions."""
    game = Game(Settings(tuple("ABCDEF"[:players]), seed=seed, edition=edition,
                         variants=variants))
    rng = random.Random(f"bot:{seed}")
    last_progress = 0
    while not game.finished:
        idle = len(game.log) - last_progress
        if idle >= stall_window:
            assert_deadlock(game)  # fails the test when play is blocked for another reason
        if idle >= stall_window or (idle and idle % DEADLOCK_PROBE == 0 and deadlocked(game)):
            warnings.warn(f"seed {seed}, {players} players: economic deadlock at action "
                          f"{len(game.log)}, nothing built, bought or earned in the last "
                          f"{idle} actions", stacklevel=2)
            break
        assert len(game.log) < max_actions, f"the game did not end (progress {idle} actions ago)"
        action = random_action(game, rng)
        game.process(action)
        if progress(game, action):
            last_progress = len(game.log)
        check_invariants(game)
        if len(game.log) % 97 == 0:
            check_secrets(game)
    check_secrets(game)
    return game


def deadlocked(game: Game) -> bool:
    try:
        assert_deadlock(game)
    except AssertionError:
        return False
    return True


def players_wealth(game: Game) -> int:
    """The most the players together can ever spend while nothing is earned: cash, paid shares
    at their sale value (the market price, par before formation; prices rise only with a
    dividend, 4.7.1), and the gain from redeeming a share below its price (2.7.4).  Elephant
    sales only move money between players."""
    st, rules = game.state, game.rules
    total = 0
    for p in st.players:
        total += p.cash
        for initials, n in p.shares.items():
            co = st.companies[initials]
            value = price(rules, co)
            unpaid = p.unredeemed.get(initials, 0)
            total += (n - unpaid) * value + unpaid * max(0, value - rules.company(initials).par)
    return total


def assert_deadlock(game: Game) -> None:
    """The economic deadlock of a stalled random game: no money can ever reach a company or a
    player again, so the game can never progress.

    Money reaches a player only from a dividend, a sale to the pool or a returned bond, and a
    company only from its formation, a run (its revenue, its mail) or a frontier post; a train
    sold between companies only moves money between treasuries (at most C, all the companies'
    cash, in any one), the Elephant between players (at most W, ``players_wealth``).  So the
    game is stuck for good when:

    1. no company can earn: no run worth anything with any one train it owns, or (while some
       company has the minimum price) with any train another company could sell it (4.5-4.6);
    2. no company can build: every legal lay, promotion and base costs more than C (a
       contract's bond and a frontier bonus need track, 4.1-4.4);
    3. no company can buy from the bank: it is at its limit, or every card it may own costs
       more than C + W (a director's contribution, 4.8.8) and it cannot buy on credit (a
       manager's company without a train, 3.4.3);
    4. no company can form (3.3): see ``_cannot_float``.
    """
    st, rules = game.state, game.rules
    formed = [co for co in st.companies.values() if co.formed]
    cash = sum(co.cash for co in formed)
    wealth = players_wealth(game)
    graph = TrackGraph.build(st.board)
    owned = [t for t in st.trains if t.where == "company"]
    for co in formed:
        _cannot_earn(game, co, graph, owned if cash >= rules.train_sale_minimum else [])
        _cannot_build(game, co, cash)
        _cannot_buy_from_bank(game, co, cash + wealth)
    for co in st.companies.values():
        if not co.formed:
            _cannot_float(game, co, wealth)


def _cannot_float(game: Game, co: CompanyState, wealth: int) -> None:
    """Clause 4: the shares still needed cost more than W; or, the one way out the rules
    leave, no player can buy a single one from his own means, so the players would first have
    to pass their money to one of them by selling him the Elephant (3.1.11) - which nothing
    in the game compels and random players never manage."""
    st, rules = game.state, game.rules
    assert not co.floated, f"{co.initials} has floated and will form"
    par = rules.company(co.initials).par
    needed = rules.table.qualifying_shares - (rules.shares_per_company - co.ipo)
    if needed * par > wealth:
        return
    for p in st.players:
        own = p.cash
        for initials, n in p.shares.items():
            other = st.companies[initials]
            unpaid = p.unredeemed.get(initials, 0)
            # 2.7.4: un-redeemed shares must all be redeemed (at par) before buying.
            own += (n - unpaid) * price(rules, other) + unpaid * (
                price(rules, other) - rules.company(initials).par)
        assert own < par, f"{p.name} could buy a share of {co.initials} (£{own})"


def _cannot_earn(game: Game, co: CompanyState, graph: TrackGraph,
                 others: list[TrainState]) -> None:
    st, rules = game.state, game.rules
    candidates = {t.runs_as for t in st.company_trains(co.initials)}
    candidates |= {t.runs_as for t in others if _may_own(game, co, t.runs_as)}
    for name in sorted(candidates):
        try:
            best = best_run(graph, co.initials, [Train.named(rules.ed, name)])
        except RuleError:
            continue
        assert best.run.revenue == 0, f"{co.initials} could earn £{best.run.revenue} " \
            f"with a '{name}'"


def _cannot_build(game: Game, co: CompanyState, cash: int) -> None:
    st, rules = game.state, game.rules
    rich = dataclasses.replace(board_port.context(rules, st, co), cash=10**9, lays_done=(),
                               promoted=False)
    moves = [*con.legal_lays(st.board, rich), *con.legal_promotions(st.board, rich),
             *con.legal_bases(st.board, rich)]
    cheap = [m for m in moves if m.cost <= cash]
    assert not cheap, f"{co.initials} could build {cheap[0].move} for £{cheap[0].cost}"


def _cannot_buy_from_bank(game: Game, co: CompanyState, funds: int) -> None:
    st, rules = game.state, game.rules
    limit = rules.phase(st.phase).train_limit
    if limit is not None and len(st.company_trains(co.initials)) >= limit:
        return
    cards = [t for t in st.trains if t.where in ("bank", "pool")
             and any(_may_own(game, co, n) for n in _types(game, t))]
    assert co.director is not None or st.company_trains(co.initials) or not any(
        t.where == "bank" for t in cards), f"{co.initials}'s manager could buy on credit"
    prices = [rules.train_type(n).price for t in cards for n in _types(game, t)
              if _may_own(game, co, n)]
    assert all(p > funds for p in prices), f"{co.initials} could buy a train (£{funds})"


def _types(game: Game, card: TrainState) -> tuple[str, ...]:
    for dual in game.rules.ed.trains.dual_options:
        if card.name == dual.card:
            return dual.trains
    return (card.name,)


def _may_own(game: Game, co: CompanyState, train: str) -> bool:
    """TABLE 5's buyers (4.8.18 a); a major owns a metre train only once the phase offers one
    to every company (4.8.15; the phase cannot change without a train bought from the bank)."""
    rules = game.rules
    spec = rules.train_type(train)
    if spec.buyers not in ("any", co.kind):
        return False
    if spec.gauge != "metre" or co.kind != "major":
        return True
    return any(rules.train_type(n).gauge == "metre" and rules.train_type(n).buyers == "any"
               for n in rules.phase(game.state.phase).trains_available)


def check_secrets(game: Game) -> None:
    """No view shows another player's bond before all are in, nor unfulfilled bid cities."""
    all_in = all(p.bond is not None for p in game.state.players)
    for viewer in [None, *game.settings.players]:
        for p in game.view(viewer)["players"]:
            if p["name"] == viewer:
                continue
            if not all_in:
                assert p["bond"] is None
                if p["bond_placed"] and game.state.round == "bids":
                    assert p["claims"] is None and p["cities_claimed"] is None
            # 15.4 (first edition): cities declared to break a seating tie are public; at the
            # end every secret is.
            if (not p["bond_returned"] and not game.state.player(p["name"]).declared
                    and not game.finished):
                assert p["cities"] is None
    check_kit_secrets(game)


def check_kit_secrets(game: Game) -> None:
    """MIK 2: no view but the moderator's shows the stack's cards, the discard stack's, or
    another player's hand before the end; a player's own hand is in his view."""
    kit = game.state.kit
    if kit is None:
        return
    for viewer in [None, *game.settings.players]:
        shown = game.view(viewer)["kit"]
        assert shown["deck_cards"] is None and shown["discard_cards"] is None
        assert shown["deck"] == len(kit.deck)
        for name, cards in shown["hands"].items():
            if name == viewer or game.finished:
                assert cards == kit.hands.get(name, [])
            else:
                assert cards is None
        text = json.dumps(game.view(viewer))
        others = [c for n, h in kit.hands.items() if n != viewer for c in h]
        if not game.finished:
            assert not any(f'"{c}"' in text for c in [*others, *kit.deck]), viewer


def check_replay(game: Game) -> None:
    """The log (through JSON) replays to the identical state, checked and unchecked."""
    data = json.loads(json.dumps(game.to_log()))
    again = Game.from_log(data)
    assert again.state == game.state
    assert again.moderator_view() == game.moderator_view()
    assert again.scores() == game.scores()
    fast = Game.from_log(data, check=False)
    assert fast.state == game.state and fast.log == game.log


STALLS = sorted((Path(__file__).resolve().parents[1] / "games" / "stalls").glob("*.json"))


@pytest.mark.parametrize("path", STALLS, ids=lambda p: p.stem)
def test_a_stalled_game_is_proved_deadlocked(path: Path) -> None:
    """Soak games that stalled (tests/games/stalls): the deadlock holds, and random play goes
    on without building, buying from the bank or earning anything."""
    game = Game.from_log(json.loads(path.read_text()))
    assert_deadlock(game)
    rng = random.Random("stall")
    for _ in range(300):
        action = random_action(game, rng)
        game.process(action)
        assert not progress(game, action), action
        check_invariants(game)
    assert_deadlock(game)


@pytest.mark.parametrize(("name", "count", "why"), [
    ("random-3p-seed3", 200, "GIP could build"),
    ("greedy-3p-seed3", 600, "EIR could earn"),
    ("greedy-3p-seed3", 1097, "EIR could earn"),
])
def test_a_game_with_a_way_out_is_no_deadlock(name: str, count: int, why: str) -> None:
    data = json.loads((Path(__file__).resolve().parents[1] / "games" / f"{name}.json")
                      .read_text())
    game = Game.replay(Settings.from_json(data["settings"]), data["actions"][:count],
                       check=False)
    with pytest.raises(AssertionError, match=why):
        assert_deadlock(game)


def test_blocked_play_fails_the_soak(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine whose list of legal actions lost the tile lays, bases and train purchases
    blocks every game: the stall is no deadlock, and the soak fails."""
    from india1853.rules.game import random_play

    def blocked(*args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        return [a for a in legal_actions(*args, **kwargs)
                if a["type"] not in ("lay_tile", "promote_tile", "place_base", "buy_train")]

    monkeypatch.setattr(random_play, "legal_actions", blocked)
    with pytest.raises(AssertionError, match=r"could (build|buy a train|earn)"):
        play_checked(104, 4, stall_window=300)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_game_to_the_end(players: int) -> None:
    game = play_checked(100 + players, players)
    assert game.state.end_reason in ("bank_broken", "share_price")
    check_replay(game)


# Edition, variant and player-count combinations the random games cover besides the second
# edition's standard game above (the first edition: rules 11-41).  The first edition's long
# game (11: the £500 notes kept) outlasts MAX_ACTIONS of random play; its bank is tested in
# test_first_edition.py.
OTHER_GAMES: list[tuple[str, tuple[str, ...], int]] = [
    *(("first", (), n) for n in (3, 4, 5, 6)),
    *(("first", ("shortened_game",), n) for n in (3, 4, 5, 6)),
    *(("first", ("simplified",), n) for n in (3, 6)),
    *(("first", ("minimum_companies",), n) for n in (4, 5)),
    *(("first", ("amended_share_limits",), n) for n in (4, 5)),
    ("first", ("alt_market",), 4),
    ("first", ("alt_bbci",), 5),
    ("first", ("alt_train_sales",), 4),
    ("first", ("alt_market", "alt_bbci", "alt_train_sales"), 3),
    ("first", ("alt_start",), 6),
    ("first", ("alt_start", "alt_bbci"), 4),
    ("first", ("mik2",), 4),
    ("first", ("mik2", "shortened_game", "alt_market"), 5),
    ("first", ("mik2", "mik2_regions"), 3),
    ("first", ("mik2", "alt_start"), 4),
]


# Two of them run in the unit suite (the first edition's standard game; the MIK 2 kit with the
# Alternative Rules start, which touches most of the first edition's optional rules); the
# others in `make soak` (issue 20: `make test` under 6 minutes).
UNIT_GAMES = {("first", (), 4), ("first", ("mik2", "alt_start"), 4)}


@pytest.mark.parametrize(("edition", "variants", "players"), soak_but(
    OTHER_GAMES, UNIT_GAMES, lambda case: "-".join([case[0], *case[1], f"{case[2]}p"])))
def test_random_game_of_each_edition_and_variant_to_the_end(
        edition: str, variants: tuple[str, ...], players: int) -> None:
    game = play_checked(200 + players, players, edition=edition, variants=variants,
                        max_actions=first_edition_max_actions(variants))
    assert game.state.end_reason in ("bank_broken", "share_price")
    check_replay(game)


# The soak (make soak): SOAK_GAMES seeded games, players cycling 3, 4, 5, 6, one test each so
# that pytest-xdist can share them out; plus a property-based run where Hypothesis draws the
# seeds and player counts.
SOAK_GAMES = int(os.environ.get("INDIA1853_SOAK_GAMES", "2000"))
SOAK_FIRST = int(os.environ.get("INDIA1853_SOAK_FIRST", "0"))  # to play a further batch
SOAK_HYPOTHESIS_GAMES = int(os.environ.get("INDIA1853_SOAK_HYPOTHESIS_GAMES", "100"))


def soak_game(index: int) -> tuple[int, int]:
    """(seed, players) of soak game ``index``."""
    return random.Random(f"soak:{index}").randrange(2**32), 3 + index % 4


@pytest.mark.soak
@pytest.mark.parametrize("index", range(SOAK_FIRST, SOAK_FIRST + SOAK_GAMES))
def test_soak_random_game(index: int) -> None:
    seed, players = soak_game(index)
    game = play_checked(seed, players)
    assert game.state.end_reason in ("bank_broken", "share_price") or not game.finished
    check_replay(game)


@pytest.mark.soak
@settings(max_examples=SOAK_HYPOTHESIS_GAMES, deadline=None,
          suppress_health_check=list(HealthCheck), database=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 6))
def test_soak_random_games_property(seed: int, players: int) -> None:
    game = play_checked(seed, players)
    check_replay(game)


# The first edition's soak: INDIA1853_SOAK_FIRST_EDITION_GAMES seeded games, players cycling
# 3-6 and the variants cycling through the combinations the rulebook allows, plus
# Hypothesis-drawn ones.
SOAK_FIRST_EDITION_GAMES = int(os.environ.get("INDIA1853_SOAK_FIRST_EDITION_GAMES", "500"))
FIRST_EDITION_SOAK_VARIANTS: tuple[tuple[str, ...], ...] = (
    (), ("shortened_game",), ("simplified",), ("minimum_companies",), ("amended_share_limits",),
    ("shortened_game", "minimum_companies"), ("shortened_game", "amended_share_limits"),
    ("alt_market",), ("alt_bbci",), ("alt_train_sales",),
    ("alt_market", "alt_bbci", "alt_train_sales"), ("simplified", "alt_market", "alt_bbci"),
    ("minimum_companies", "alt_train_sales"),
    ("alt_start",), ("alt_start", "alt_market", "alt_bbci", "alt_train_sales"),
    ("alt_start", "shortened_game"),
    ("mik2",), ("mik2", "shortened_game"), ("mik2", "alt_market", "alt_bbci", "alt_train_sales"),
    ("long_game",), ("mik2", "long_game"), ("mik2", "mik2_regions"),
    ("mik2", "mik2_regions", "alt_bbci"),
    # The Alternative Rules "should be used with the MIK 2 Kit": the start (1.0) with the kit.
    ("mik2", "alt_start"), ("mik2", "alt_start", "alt_market", "alt_bbci", "alt_train_sales"),
    ("mik2", "mik2_regions", "alt_start", "shortened_game"),
)


def first_edition_max_actions(variants: tuple[str, ...]) -> int:
    """The action limit of a random first-edition game: the long game keeps the £500 notes
    (a bank of £12,500, not £6,500), and random play needs about twice the actions to break it
    (soak game 77 of the long game: 16,484 actions, bank broken)."""
    return FIRST_EDITION_MAX_ACTIONS * (2 if "long_game" in variants else 1)


@pytest.mark.soak
@pytest.mark.parametrize("index", range(SOAK_FIRST_EDITION_GAMES))
def test_soak_random_first_edition_game(index: int) -> None:
    seed, players = soak_game(10**6 + index)
    variants = FIRST_EDITION_SOAK_VARIANTS[index // 4 % len(FIRST_EDITION_SOAK_VARIANTS)]
    game = play_checked(seed, players, edition="first", variants=variants,
                        max_actions=first_edition_max_actions(variants))
    assert game.state.end_reason in ("bank_broken", "share_price") or not game.finished
    check_replay(game)


@pytest.mark.soak
@settings(max_examples=SOAK_HYPOTHESIS_GAMES, deadline=None,
          suppress_health_check=list(HealthCheck), database=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 6),
       variants=st.sampled_from(FIRST_EDITION_SOAK_VARIANTS))
def test_soak_random_first_edition_games_property(seed: int, players: int,
                                                  variants: tuple[str, ...]) -> None:
    game = play_checked(seed, players, edition="first", variants=variants,
                        max_actions=first_edition_max_actions(variants))
    check_replay(game)
