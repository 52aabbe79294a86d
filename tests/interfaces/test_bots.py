"""Bots: they choose only among the legal actions, see only their player's view, and finish
games (greedy and random), all through the public interfaces (make_bot, decision_for, the
engine's Game)."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

import pytest

from india1853.board.graph import TrackGraph
from india1853.board.hexes import distance
from india1853.data.loader import load_edition
from india1853.errors import InputError, RuleError
from india1853.interfaces.bots import (
    BOT_NAMES,
    Bot,
    Decision,
    UnknownBotError,
    decision_for,
    make_bot,
    reads_prices,
)
from india1853.interfaces.bots.greedy import board_of, knowledge
from india1853.interfaces.bots.greedy.common import Positions
from india1853.interfaces.simulate import BotError, play_game, seat_names
from india1853.rules.game.game import Game, effective_actions
from india1853.rules.game.settings import Settings
from india1853.rules.router import best_run
from india1853.rules.routes import Train

GAME_BOUND = 5_000


class Spy:
    """Wraps a bot; records every decision it was shown and every choice."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.seen: list[tuple[Decision, dict[str, Any]]] = []

    @property
    def player(self) -> str:
        return self.inner.player

    @property
    def priced(self) -> bool:
        # Watching does not change what the bot reads (the random bot: no prices).
        return reads_prices(self.inner)

    def choose(self, decision: Decision) -> dict[str, Any]:
        choice = self.inner.choose(decision)
        self.seen.append((decision, choice))
        return choice


def spies(bot: str, names: tuple[str, ...], seed: int) -> dict[str, Spy]:
    return {n: Spy(make_bot(bot, n, seed)) for n in names}


def play(bot: str, players: int, seed: int, bound: int = GAME_BOUND,
         edition: str = "second") -> tuple[Game, dict[str, Spy]]:
    names = seat_names([bot] * players)
    bots = spies(bot, names, seed)
    game = play_game(Settings(players=names, seed=seed, edition=edition), dict(bots),
                     max_actions=bound)
    return game, bots


@functools.cache
def played(bot: str, players: int, seed: int,
           bound: int = GAME_BOUND) -> tuple[Game, dict[str, Spy]]:
    """``play``, once per file for each game: several tests read the same game (its log and
    what each bot saw and chose) and none changes it; playing it again would cost CPU seconds
    and check nothing more (the repeatability of a seed is its own test)."""
    return play(bot, players, seed, bound)


def test_make_bot_knows_random_greedy_and_strong() -> None:
    assert set(BOT_NAMES) == {"random", "greedy", "strong"}
    for name in BOT_NAMES:
        assert make_bot(name, "Ann", 1).player == "Ann"


def test_unknown_bot_is_a_clear_input_error() -> None:
    with pytest.raises(UnknownBotError, match="bot: unknown bot 'clever'"):
        make_bot("clever", "Ann", 1)
    assert issubclass(UnknownBotError, InputError)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bot_refuses_an_empty_legal_list(name: str) -> None:
    game = Game(Settings(players=("A", "B", "C"), seed=1))
    with pytest.raises(InputError, match="no legal action"):
        make_bot(name, "A", 1).choose(Decision("A", game.view("A"), [], []))


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bot_never_undoes(name: str) -> None:
    game = Game(Settings(players=("A", "B", "C"), seed=1))
    decision = decision_for(game, "A", "A")
    decision = replace(decision, legal=[{"type": "undo", "entity": "A", "entity_type": "player"},
                                        *decision.legal])
    bot = make_bot(name, "A", 3)
    for _ in range(20):
        assert bot.choose(decision)["type"] != "undo"


def test_random_bot_is_repeatable_for_a_seed_and_varies_with_it() -> None:
    # The same seed again, played afresh, repeats the file's whole random game action for
    # action as far as it goes (that game is played once per file: test_random_game_finishes).
    whole, _ = played("random", 3, 2, 6_000)
    first, _ = play("random", 3, seed=2, bound=300)
    other, _ = play("random", 3, seed=3, bound=300)
    assert len(whole.log) > 300
    assert first.log == whole.log[:300]
    assert first.log != other.log


def test_random_bot_is_uniform_over_the_legal_actions() -> None:
    game = Game(Settings(players=("A", "B", "C", "D"), seed=1))
    decision = decision_for(game, "A", "A")
    legal = decision.legal
    bot = make_bot("random", "A", 5)
    counts = {a["amount"]: 0 for a in legal}
    draws = 200 * len(legal)
    for _ in range(draws):
        counts[bot.choose(decision)["amount"]] += 1
    # Each amount's share stays within a loose band around 1/len(legal).
    assert all(0.5 * 200 < n < 1.5 * 200 for n in counts.values())


def test_a_bot_choosing_outside_the_legal_list_is_stopped() -> None:
    class Cheat:
        player = "A"

        def choose(self, decision: Decision) -> dict[str, Any]:
            return {**decision.legal[0], "amount": 1}

    names = ("A", "B", "C")
    bots: dict[str, Bot] = {n: make_bot("greedy", n, 1) for n in names}
    bots["A"] = Cheat()
    with pytest.raises(BotError, match="not offered"):
        play_game(Settings(players=names, seed=1), bots, max_actions=10)


def _assert_only_legal_and_own_view(bots: dict[str, Spy]) -> None:
    for name, spy in bots.items():
        assert spy.seen
        for decision, choice in spy.seen:
            view = decision.view
            assert choice in decision.legal
            for p in view["players"]:
                if p["name"] == name:
                    continue
                # Hidden information (2.5.2-2.5.4): others' cities until their contract
                # is fulfilled, others' bonds until every bond is in.
                if not p["bond_returned"] and view["round"] != "finished":
                    assert p["cities"] is None
                if view["round"] == "bonds":
                    assert p["bond"] is None


def test_greedy_game_finishes_with_only_legal_choices_from_own_views() -> None:
    game, bots = played("greedy", 4, seed=3)
    assert game.finished
    assert len(game.log) < GAME_BOUND
    _assert_only_legal_and_own_view(bots)
    types = {a["type"] for a in game.log}
    # Sensible play: it lays track, runs the router's optimal routes and buys trains.
    assert {"lay_tile", "run_routes", "buy_train", "dividend", "buy_share"} <= types


def test_greedy_runs_the_optimal_route_and_pays_when_it_can_keep_a_train() -> None:
    _, bots = played("greedy", 4, seed=3)
    withheld = 0
    for spy in bots.values():
        for decision, choice in spy.seen:
            runs = [a for a in decision.legal if a["type"] == "run_routes"]
            if runs:
                assert choice == runs[0]
            if choice["type"] == "dividend":
                co = decision.view["companies"][choice["entity"]]
                # The engine's outlook: the trains the bank offers it and the limit (4.8.5).
                outlook = decision.trains[choice["entity"]]
                broad = outlook.cheapest("broad")
                next_price = broad.price if broad is not None else 0
                # 4.6.4: withhold exactly when the company cannot yet keep its next train.
                keeps = co["cash"] >= next_price or outlook.at_limit
                assert (choice["kind"] == "payout") == keeps
                withheld += choice["kind"] == "withhold"
    assert withheld > 0


def test_greedy_bids_a_legal_compact_contract() -> None:
    game, _ = played("greedy", 4, seed=8, bound=60)
    ed = load_edition("second")
    for p in game.moderator_view()["players"]:
        cities = [ed.city(c) for c in p["cities"]]
        assert len(cities) == 3
        # 2.5.9: the bond covers the cities' values and no more (above the minimum bond).
        assert p["bond"] == max(60, sum(c.bond_value for c in cities))
        assert max(distance(a.hex, b.hex) for a in cities for b in cities) <= 10


@pytest.mark.parametrize("players", [3, 5, 6])
def test_greedy_finishes_with_other_player_counts(players: int) -> None:
    game, _ = played("greedy", players, seed=players)
    assert game.finished


def test_random_game_finishes() -> None:
    game, bots = played("random", 3, 2, 6_000)
    assert game.finished
    _assert_only_legal_and_own_view(bots)


def test_bots_need_a_decider_for_each_company() -> None:
    # The table asks the engine who decides: a company nobody decides for (before the contract
    # bids give anyone the Elephant, 3.4.1) is a clear error.
    from india1853.interfaces.simulate import decider

    game = Game(Settings(("Ann", "Bob", "Cat"), seed=1))
    with pytest.raises(BotError, match="EIR"):
        decider(game, "EIR")
    assert decider(game, "Ann") == "Ann"


def _run_steps(game: Game) -> dict[str, list[bool]]:
    """For each company, at each of its run steps (4.5) while it owns trains, whether it ran:
    a pass or an empty run earns nothing."""
    replay = Game(game.settings)
    out: dict[str, list[bool]] = {}
    for action in effective_actions(game.log):
        view = replay.view(None)
        turn = view.get("turn") or {}
        entity = action["entity"]
        if (action["entity_type"] == "company" and turn.get("step") == "run"
                and view["companies"][entity]["trains"]):
            ran = action["type"] == "run_routes" and bool(action.get("routes"))
            out.setdefault(entity, []).append(ran)
        replay.process({**action, "id": replay.next_id()})
    return out


@pytest.mark.parametrize("seed", [1, 3])
def test_greedy_strands_no_company(seed: int) -> None:
    """Every company that owns trains runs them: none spends its money on trains that cannot
    run and is left without track (seeds where ECR used to buy two '2' trains at Waltair and
    never ran, 4.5, 4.8)."""
    game, _ = played("greedy", 4, seed=seed)
    assert game.finished
    steps = _run_steps(game)
    assert len(steps) >= 5
    for company, ran in steps.items():
        assert any(ran), f"{company} never ran"
        misses = "".join("x" if not r else "." for r in ran)
        assert "xxx" not in misses, f"{company} did not run three times in a row: {misses}"


def _best(board: Any, company: str, trains: list[Train]) -> int:
    try:
        return best_run(TrackGraph.build(board), company, trains).run.total
    except RuleError:
        return 0


def test_greedy_buys_another_train_only_when_its_run_would_use_it() -> None:
    """4.8: a company with trains buys one more only if the router's optimal run (4.6) is worth
    more with it than without; checked on the engine's own board at each purchase."""
    game, _ = played("greedy", 4, seed=3)
    ed = load_edition("second")
    replay = Game(game.settings)
    extra = 0
    for action in effective_actions(game.log):
        company = action["entity"]
        if (action["type"] == "buy_train" and action.get("source", "bank") == "bank"
                and replay.state.company_trains(company)):
            trains = [Train.named(ed, t.runs_as) for t in replay.state.company_trains(company)]
            board = replay.state.board
            without = _best(board, company, trains)
            with_it = _best(board, company, [*trains, Train.named(ed, action["train"])])
            assert with_it > without, (action, without, with_it)
            extra += 1
        replay.process({**action, "id": replay.next_id()})
    assert extra > 0


def test_greedy_buys_no_share_of_a_company_that_has_not_paid() -> None:
    """A share of another director's company is bought only once its price has risen above
    par, which only a dividend does (4.7.1), unless the bot's own contract bid is in it."""
    _, bots = played("greedy", 4, seed=3)
    ed = load_edition("second")
    bought = 0
    for name, spy in bots.items():
        for decision, choice in spy.seen:
            if choice["type"] != "buy_share":
                continue
            co = decision.view["companies"][choice["company"]]
            me = next(p for p in decision.view["players"] if p["name"] == name)
            if not co["formed"] or co["director"] == name or choice["company"] in me["claims"]:
                continue
            bought += 1
            assert co["price"] > ed.company(choice["company"]).par, (choice, co["price"])
    assert bought > 0


def test_a_decision_without_prices_is_the_same_view_and_legal_list() -> None:
    """The table asks the engine for the view and the legal actions only for a bot that reads
    no prices (the random bot): the same lists as the priced decision, and no price at all
    (asking one is an error, not a silent 0)."""
    game = Game(Settings(players=("A", "B", "C"), seed=1))
    full = decision_for(game, "A", "A")
    bare = decision_for(game, "A", "A", priced=False)
    assert not reads_prices(make_bot("random", "A", 1))
    assert reads_prices(make_bot("greedy", "A", 1)) and reads_prices(make_bot("strong", "A", 1))
    assert (bare.entity, bare.view, bare.legal) == (full.entity, full.view, full.legal)
    assert full.priced and full.options and not bare.priced and not bare.options
    assert full.cost(full.legal[0]) > 0
    with pytest.raises(ValueError, match="without prices"):
        bare.cost(bare.legal[0])


def test_a_bots_remembered_boards_are_the_views_boards() -> None:
    """The greedy bot grows each new view's board from the last one it remembers (more tiles,
    more bases, tiles promoted in their places): the same tiles and bases in the same order,
    and the same track graph, as the board built afresh from the view."""
    game, _ = played("greedy", 4, seed=3)
    k = knowledge("second")
    positions = Positions()
    replay = Game(game.settings)
    grown = promotions = 0
    last: TrackGraph | None = None
    for action in effective_actions(game.log)[:400]:
        replay.process({**action, "id": replay.next_id()})
        if action["type"] not in ("lay_tile", "promote_tile", "place_base"):
            continue
        view = replay.view(None)
        fresh = board_of(k, view)
        board = positions.board(k, view)
        positions.value(board, action["entity"], [Train.named(k.ed, "2")])  # as a bot does
        assert list(board.tiles.items()) == list(fresh.tiles.items())
        assert board.bases == fresh.bases
        graph = TrackGraph.build(board)
        assert graph == TrackGraph.build(fresh)
        # A grown graph keeps the tracks of the one it grew from (a fresh one has its own).
        grows = bool(last and last.tracks and graph.tracks[0] is last.tracks[0])
        grown += grows
        promotions += grows and action["type"] == "promote_tile"
        last = graph
    assert grown > 10
    assert promotions > 0
