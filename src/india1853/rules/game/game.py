"""The game engine: an event-sourced game of 1853.

Public API::

    game = Game(settings, actions=())      # replays the actions
    game.process(action)                   # validate and apply one action, or raise
    game.legal_actions(entity)             # what that player or company may do now
    game.active_entities()                 # who may act now: [(entity, entity_type), ...]
    game.view(player) / game.view(None)    # a player's / the public view (hidden info removed)
    game.moderator_view()                  # everything
    game.to_log() / Game.from_log(data)    # the log file: settings, actions, engine version
    Game.replay(settings, actions, check=False)  # trusted logs only: no legality checks
    game.finished, game.scores()           # the end (5.1, 5.2)

``process`` applies the action to a copy of the state and keeps the copy only when every check
passed, so an error (a :class:`~india1853.errors.RuleError` naming the rule, or an
:class:`~india1853.errors.InputError` naming the field) leaves the game untouched.  ``undo`` and
``redo`` are actions: undo rebuilds the state by replaying the log without the undone action.

Replaying without checks (``check=False``) is for trusted logs only - logs this engine wrote,
whose every action was once accepted by ``process``.  It applies the actions in place, skips the
shape checks and the costly legality checks of track, bases and runs (their effects - costs,
duties, revenue - are still computed), and reaches the same state as the checked replay; an
illegal action in such a log is NOT detected and gives an undefined state.  Undo uses it too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from india1853.board.state import BoardState
from india1853.errors import InputError, RuleError
from india1853.rules.game import views
from india1853.rules.game.actions import check_action
from india1853.rules.game.dispatch import apply_action, expected_entities
from india1853.rules.game.legal import legal_actions as _legal_actions
from india1853.rules.game.rules_data import GameRules, game_rules
from india1853.rules.game.scoring import scores
from india1853.rules.game.settings import Settings
from india1853.rules.game.simplified import deal_directors
from india1853.rules.game.state import CompanyState, GameState, PlayerState
from india1853.rules.game.trains import initial_trains

ENGINE_VERSION = "1"


def initial_state(rules: GameRules, settings: Settings) -> GameState:
    """2.1, 2.3 / 13: the bank and each player's starting money; every share in the offering;
    the contract bids to come (2.5 / 14), or the Simplified Game's deal."""
    cash = rules.table.starting_cash
    players = [PlayerState(name, cash) for name in settings.players]
    bank = rules.bank - cash * len(players)
    companies = {
        c.initials: CompanyState(c.initials, c.number, c.type, rules.shares_per_company)
        for c in rules.companies
    }
    st = GameState(
        players=players,
        companies=companies,
        trains=initial_trains(rules),
        board=BoardState.initial(rules.ed),
        bank=bank,
        start_total=rules.bank,
        seed=settings.seed,
        round="bids" if rules.policy.bid_procedure == "secret" else "bonds",
    )
    if rules.dealt_start:
        deal_directors(rules, st)
    return st


def _undo_stacks(
    log: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The actions in force and the undone ones ``redo`` would restore (the next one last)."""
    done: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    for action in log:
        if action["type"] == "undo":
            undone.append(done.pop())
        elif action["type"] == "redo":
            done.append(undone.pop())
        else:
            done.append(action)
            undone = []
    return done, undone


def effective_actions(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions in force: the log with undone actions removed and redone ones restored."""
    return _undo_stacks(log)[0]


def redo_stack(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The undone actions that ``redo`` would restore, the next one last."""
    return _undo_stacks(log)[1]


def _apply(rules: GameRules, st: GameState, action: dict[str, Any], *, check: bool) -> None:
    """Apply one action and move the undo barrier to it if it revealed a secret.  Derived
    from the actions alone, so every replay (checked, unchecked, after undo) rebuilds it."""
    before = views.revealed(rules, st)
    apply_action(rules, st, action, check=check)
    news = sorted(views.revealed(rules, st) - before)
    if news:
        st.undo_barrier = st.seq
        st.undo_barrier_reason = "; ".join(news)


class Game:
    """One game: settings plus the log of actions; the state is derived from them."""

    def __init__(self, settings: Settings, actions: Iterable[dict[str, Any]] = ()) -> None:
        self.settings = settings
        self.rules = game_rules(settings.edition, len(settings.players), settings.variants)
        self.log: list[dict[str, Any]] = []
        self._in_force = 0  # len(effective_actions(self.log)), kept up to date
        self.state = initial_state(self.rules, settings)
        for action in actions:
            self.process(action)

    # --- actions ----------------------------------------------------------------------------

    def next_id(self) -> int:
        return len(self.log) + 1

    def action(self, type_: str, entity: str, *, created_at: int = 0,
               **fields: Any) -> dict[str, Any]:
        """An action dict for this game (the next id, the entity's type filled in)."""
        entity_type = "company" if entity in self.state.companies else "player"
        return {"type": type_, "entity": entity, "entity_type": entity_type,
                "id": self.next_id(), "created_at": created_at, **fields}

    def process(self, action: object) -> None:
        """Validate and apply one action; on any error the game is unchanged."""
        checked = check_action(action)
        if checked["id"] != self.next_id():
            raise InputError(f"action.id: expected {self.next_id()}, got {checked['id']}")
        if checked["type"] in ("undo", "redo"):
            self._undo_redo(checked)
            return
        if self.state.round == "finished":
            raise RuleError("5.1", "the game is over")
        new = self.state.clone()
        new.seq = self._in_force + 1
        _apply(self.rules, new, checked, check=True)
        self.state = new
        self.log.append(checked)
        self._in_force += 1

    def _undo_redo(self, action: dict[str, Any]) -> None:
        entity = action["entity"]
        if action["type"] == "undo":
            done = effective_actions(self.log)
            if not done:
                raise RuleError("undo", "there is nothing to undo")
            self._check_barrier(done)
            target = done[-1]
        else:
            stack = redo_stack(self.log)
            if not stack:
                raise RuleError("redo", "there is nothing to redo")
            target = stack[-1]
        if target["entity"] != entity:
            raise RuleError(action["type"], f"the action to {action['type']} was "
                            f"{target['entity']}'s, not {entity}'s")
        log = [*self.log, action]
        in_force = effective_actions(log)
        self.state = self._replay(in_force)
        self.log = log
        self._in_force = len(in_force)

    def _check_barrier(self, done: list[dict[str, Any]]) -> None:
        """Hidden information: an action that revealed a secret (every bond, 2.5.3; a bid's
        cities, 4.3.2; whether the BBCI director's bid names its two cities, 2.6.2) cannot be
        undone, nor any action before it - the secret has been seen and would be played on.
        Redo needs no barrier: only actions after the last reveal can have been undone."""
        barrier = self.state.undo_barrier
        if len(done) <= barrier:
            revealing = done[barrier - 1]
            raise RuleError("undo", f"{revealing['type']} (action {revealing['id']}) revealed "
                            f"secret information ({self.state.undo_barrier_reason}); it and "
                            "the actions before it cannot be undone")

    def _replay(self, actions: list[dict[str, Any]]) -> GameState:
        """The state after ``actions`` (already accepted once), applied in place unchecked."""
        st = initial_state(self.rules, self.settings)
        for i, action in enumerate(actions, start=1):
            st.seq = i
            _apply(self.rules, st, action, check=False)
        return st

    @classmethod
    def replay(cls, settings: Settings, actions: Iterable[dict[str, Any]], *,
               check: bool = True) -> Game:
        """The game after ``actions`` (undo and redo included).  ``check=True`` is
        ``Game(settings, actions)``; ``check=False`` is for trusted logs only (see the module
        docstring): several times faster, and an illegal action goes undetected."""
        if check:
            return cls(settings, actions)
        game = cls(settings)
        log = [dict(a) for a in actions]
        in_force = effective_actions(log)
        game.state = game._replay(in_force)
        game.log = log
        game._in_force = len(in_force)
        return game

    # --- queries ----------------------------------------------------------------------------

    def active_entities(self) -> list[tuple[str, str]]:
        return expected_entities(self.rules, self.state)

    def legal_actions(self, entity: str) -> list[dict[str, Any]]:
        """Every action the entity may take now (ids and times left for the caller to fill;
        use :meth:`action`).  Tile lays and bases come from the construction module, runs from
        the router with the optimum first; a bond or price is offered in steps of £10."""
        return _legal_actions(self.rules, self.state, entity)

    @property
    def finished(self) -> bool:
        return self.state.round == "finished"

    def scores(self) -> dict[str, int]:
        return scores(self.rules, self.state)

    def company(self, initials: str) -> CompanyState:
        return self.state.companies[initials]

    def player(self, name: str) -> PlayerState:
        return self.state.player(name)

    def view(self, player: str | None) -> dict[str, Any]:
        """The state as ``player`` may see it; ``None``: what every player may see."""
        if player is not None and player not in self.settings.players:
            raise InputError(f"view: unknown player {player!r}")
        return views.view(self.rules, self.state, player)

    def moderator_view(self) -> dict[str, Any]:
        return views.view(self.rules, self.state, None, moderator=True)

    # --- log files --------------------------------------------------------------------------

    def to_log(self) -> dict[str, Any]:
        """The log file: settings, the actions (with undo and redo) and the engine version.
        It holds the secret bids: it is the moderator's."""
        return {
            "engine_version": ENGINE_VERSION,
            "settings": self.settings.to_json(),
            "actions": [dict(a) for a in self.log],
        }

    @staticmethod
    def from_log(data: object, *, check: bool = True) -> Game:
        """The game of a log file; ``check=False`` for trusted logs only (see
        :meth:`replay`)."""
        if not isinstance(data, dict):
            raise InputError("log: must be a JSON object")
        version = data.get("engine_version")
        if version != ENGINE_VERSION:
            raise InputError(f"log.engine_version: {version!r} is not {ENGINE_VERSION!r}")
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise InputError("log.actions: must be a list")
        return Game.replay(Settings.from_json(data.get("settings")), actions, check=check)
