"""The game engine: an event-sourced game of 1853.

Public API::

    game = Game(settings, actions=())      # replays the actions
    game.process(action)                   # validate and apply one action, or raise;
                                           # returns the events it set off (events.py)
    game.fork() / game.at(n)               # a copy to try actions on / the game after n actions
    game.legal_actions(entity)             # what that player or company may do now
    game.active_entities()                 # who may act now: [(entity, entity_type), ...]
    game.disabled_options(entity)          # options not possible now, each with its reason
    game.why_not(action)                   # why an action is not possible now, or None
    game.decider(entity)                   # the player who decides for a player or company
    game.undo_target(*seats, bots=...)     # the action an undo by one of the seats takes back
    game.undo_targets(*seats, bots=...)    # ... with the bots' replies after his own decision
    game.redo_target(*seats)               # the action a redo by one of them puts back
    game.view(player) / game.view(None)    # a player's / the public view (hidden info removed)
    game.moderator_view()                  # everything
    game.to_log() / Game.from_log(data)    # the log file: settings, actions, engine version
    Game.replay(settings, actions, check=False)  # trusted logs only: no legality checks
    replay_events(settings, actions)       # each action of a log with its events
    Game.positions(settings, actions)      # trusted logs: each action with the game before it
    game.finished, game.scores()           # the end (5.1, 5.2)

``process`` applies the action to a copy of the state and keeps the copy only when every check
passed, so an error (a :class:`~india1853.errors.RuleError` naming the rule, or an
:class:`~india1853.errors.InputError` naming the field) leaves the game untouched.  The error
cites the game's edition: the rules both editions share cite the second edition's numbers
(2.x-5.x), and in a first-edition game ``process`` re-raises their errors citing the 1989
paragraphs (11-41) instead (:func:`in_own_numbering`, ``data/rule_citations.json``).  ``undo`` and
``redo`` are actions.  The game keeps the actions in force and the redo stack, and a snapshot
of the state every :data:`SNAPSHOT_EVERY` actions in force: undo and redo move an action
between the two stacks, and the state is rebuilt when next asked for, from the nearest snapshot
(at most ``SNAPSHOT_EVERY - 1`` actions replayed without checks), so undo costs the same at any
length of game, and a log of many undo/redo pairs loads in time linear in its length (the
events of the action moved are those kept of the last :data:`EVENTS_KEPT` actions processed,
else found by applying it once more).

Replaying without checks (``check=False``) is for trusted logs only - logs this engine wrote,
whose every action was once accepted by ``process``.  It applies the actions in place, skips the
shape checks and the costly legality checks of track, bases and runs (their effects - costs,
duties, revenue - are still computed), and reaches the same state as the checked replay; an
illegal action in such a log is NOT detected and gives an undefined state.  Undo uses it too.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any, TypeVar

from india1853.board.state import BoardState
from india1853.data.citations import citation_map, cite, cite_text
from india1853.errors import InputError, RuleError
from india1853.rules.game import sequence, views
from india1853.rules.game.actions import check_action
from india1853.rules.game.dispatch import apply_action, expected_entities
from india1853.rules.game.events import Event, change, emit, undone
from india1853.rules.game.kit import new_kit
from india1853.rules.game.legal import disabled_options as _disabled_options
from india1853.rules.game.legal import legal_actions as _legal_actions
from india1853.rules.game.rules_data import GameRules, game_rules
from india1853.rules.game.scoring import scores
from india1853.rules.game.settings import Settings
from india1853.rules.game.shares import controller
from india1853.rules.game.state import CompanyState, GameState, PlayerState
from india1853.rules.game.steps import Disabled
from india1853.rules.game.steps import current as current_step
from india1853.rules.game.trains import initial_trains
from india1853.rules.game.undo_log import effective_actions, redo_stack, undo_stacks
from india1853.rules.game.wording import agree

ENGINE_VERSION = "1"
# Engine tuning, not a rule: how often (in actions in force) a snapshot of the state is kept for
# undo.  Replaying an action unchecked costs about 0.1 ms and a snapshot (GameState.clone) a
# quarter of that, so an undo replays at most a few milliseconds of actions (docs/performance.md).
SNAPSHOT_EVERY = 32

# Engine tuning too: the events of how many of the last actions processed (or moved by undo and
# redo) are kept, for an undo or redo of them to report without applying them again.  Not every
# action's: the events of a long game would outweigh its state.
EVENTS_KEPT = 64

T = TypeVar("T")


def initial_state(rules: GameRules, settings: Settings) -> GameState:
    """2.1, 2.3 / 13: the bank and each player's starting money; every share in the offering;
    the contract bids to come (2.5 / 14), or the Simplified Game's deal, or Alternative Rules
    1.0's places dealt at random (the sequencer's opening, ``sequence.begin``)."""
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
        kit=new_kit(rules, settings.seed),
    )
    sequence.begin(rules, st)
    return st


def _round_of(st: GameState) -> dict[str, Any]:
    """What names the round in progress (the turn model's title reads these)."""
    return {"round": st.round, "stock_round": st.stock_round, "or_in_set": st.or_in_set,
            "ors_in_set": st.ors_in_set}


def _game_over(rules: GameRules, st: GameState) -> None:
    """5.1-5.2: the end - the final scores, and the contracts not fulfilled, whose cities are
    revealed with every other secret (5.1) and whose bonds are lost (5.2.1)."""
    emit(st, "game_over", "", "5.1", reason=st.end_reason, scores=scores(rules, st))
    for p in st.players:
        if not p.bond_returned and p.bond is not None:
            emit(st, "contract_failed", p.name, "4.3 / 5.2.1", bond=p.bond,
                 cities=list(p.cities))


def _apply(rules: GameRules, st: GameState, action: dict[str, Any], *,
           check: bool) -> list[Event]:
    """Apply one action, then let the sequencer start the round after one it ended; move the
    undo barrier to the action if it revealed a secret.  Derived from the actions alone, so
    every replay (checked, unchecked, after undo) rebuilds it.  Returns the events the action
    set off (events.py): those the rules reported, the new round and the end of the game."""
    st.events = []
    before = views.reveal_facts(rules, st)
    round_before = _round_of(st)
    apply_action(rules, st, action, check=check)
    sequence.after_action(rules, st)
    change(st, "round", "", "2.5 / 3 / 4.10", round_before, _round_of(st))
    if st.round == "finished" and round_before["round"] != "finished":
        _game_over(rules, st)
    after = views.reveal_facts(rules, st)
    # Worded only when something changed: most actions reveal nothing.
    news = [] if after == before else sorted(
        views.reveal_wording(rules, after) - views.reveal_wording(rules, before))
    if news:
        st.undo_barrier = st.seq
        st.undo_barrier_reason = "; ".join(news)
    out, st.events = st.events, []
    return out


def in_own_numbering(edition: str, error: InputError | RuleError) -> InputError | RuleError:
    """``error`` citing ``edition``'s rules: its rule and the citations in its message ("(4.8.10)",
    "rule 3.1.2") translated by ``data/rule_citations.json`` (the first edition's 11-41 for the
    second edition's 2.x-5.x; a dual citation "4.1.10 / 31.8" keeps the edition's part), a new
    error of the same type; ``error`` itself where nothing changes (the second edition)."""
    if not citation_map(edition):
        return error
    if isinstance(error, RuleError):
        message = str(error).removeprefix(f"rule {error.rule}: ")
        rule = cite(edition, error.rule)
        text = cite_text(edition, message)
        if (rule, text) == (error.rule, message):
            return error
        return RuleError(rule, text)
    text = cite_text(edition, str(error))
    return error if text == str(error) else InputError(text)


class Game:
    """One game: settings plus the log of actions; the state is derived from them."""

    def __init__(self, settings: Settings, actions: Iterable[dict[str, Any]] = ()) -> None:
        self.settings = settings
        self.rules = game_rules(settings.edition, len(settings.players), settings.variants)
        self.log: list[dict[str, Any]] = []
        # The actions in force (effective_actions(self.log)) and the undone ones redo would
        # restore (redo_stack(self.log), the next one last), both kept up to date.
        self._done: list[dict[str, Any]] = []
        self._undone: list[dict[str, Any]] = []
        # The events of the last EVENTS_KEPT actions processed or moved (by id), oldest first.
        self._recent_events: OrderedDict[int, list[Event]] = OrderedDict()
        # Who decided each action (by id), as far as known: noted when an action is processed,
        # else found by rebuilding the state before it (``decided_by``).
        self._deciders: dict[int, str | None] = {}
        start = initial_state(self.rules, settings)
        # _snapshots[k]: a private copy of the state after the first k actions in force, for
        # k a multiple of SNAPSHOT_EVERY (0 always).  Valid for every k <= len(_done) + len(
        # _undone): undo and redo move along that one line of actions.
        self._snapshots: dict[int, GameState] = {0: start.clone()}
        self._state = start
        self._state_len = 0  # the number of actions in force self._state is after
        # What ``per_state`` worked out for one state (the engine never changes a state it
        # has handed out, so the state itself is the key).
        self._kept_for: GameState | None = None
        self._kept: dict[str, Any] = {}
        for action in actions:
            self._cited(action, in_place=True)

    @property
    def state(self) -> GameState:
        """The current state (rebuilt here after undo or redo, from the nearest snapshot)."""
        if self._state_len != len(self._done):
            self._state = self._rebuild(len(self._done))
            self._state_len = len(self._done)
        return self._state

    # --- actions ----------------------------------------------------------------------------

    def next_id(self) -> int:
        return len(self.log) + 1

    def action(self, type_: str, entity: str, *, created_at: int = 0,
               **fields: Any) -> dict[str, Any]:
        """An action dict for this game (the next id, the entity's type filled in).  The
        companies are the same in every state of a game, so the last state built tells (an
        undo does not rebuild the state to name the next one's entity)."""
        entity_type = "company" if entity in self._state.companies else "player"
        return {"type": type_, "entity": entity, "entity_type": entity_type,
                "id": self.next_id(), "created_at": created_at, **fields}

    def process(self, action: object) -> list[Event]:
        """Validate and apply one action and return the events it set off (events.py); on any
        error the game is unchanged, and the error cites the game's own edition's rules
        (:func:`in_own_numbering`).  An undo's events are the undo and the changes of the
        action it takes back, reversed; a redo's, the redo and that action's events again."""
        return self._cited(action, in_place=False)

    def _cited(self, action: object, *, in_place: bool) -> list[Event]:
        """:meth:`process`; ``in_place=True`` for the constructor's replay only: the action is
        applied to the state itself, not to a copy (the copy was a seventh of a checked
        replay's time), so an error leaves a broken game - which the constructor never hands
        out: it raises."""
        try:
            return self._process(action, in_place)
        except (InputError, RuleError) as error:
            own = in_own_numbering(self.settings.edition, error)
            if own is error:
                raise
            raise own from error

    def _process(self, action: object, in_place: bool, check: bool = True) -> list[Event]:
        checked = check_action(action) if check else dict(action)  # type: ignore[call-overload]
        if checked["id"] != self.next_id():
            raise InputError(f"action.id: expected {self.next_id()}, got {checked['id']}")
        if checked["type"] in ("undo", "redo"):
            target = self._undo_redo(checked)
            return undone(target, self._events_again(target), checked["type"])
        if self.state.round == "finished":
            raise RuleError("5.1", "the game is over")
        entity = checked["entity"]
        co = self.state.companies.get(entity)
        decided = entity if co is None else controller(self.state, co)
        new = self.state if in_place else self.state.clone()
        new.seq = len(self._done) + 1
        events = _apply(self.rules, new, checked, check=check)
        self.log.append(checked)
        self._done.append(checked)
        # Snapshots beyond the new action exist only along an undone line (see _set_state).
        redone_line = bool(self._undone)
        self._undone.clear()
        self._deciders[checked["id"]] = decided
        self._set_state(new, redone_line)
        self._keep_events(checked["id"], events)
        return events

    def _keep_events(self, action_id: int, events: list[Event]) -> None:
        self._recent_events[action_id] = events
        self._recent_events.move_to_end(action_id)
        while len(self._recent_events) > EVENTS_KEPT:
            self._recent_events.popitem(last=False)

    def _events_again(self, target: dict[str, Any]) -> list[Event]:
        """The events of ``target``, just undone or put back by a redo: kept, or found by
        applying it again (unchecked: it was accepted once) to the state before it - the state
        now after an undo; after a redo the state so reached is kept."""
        key = int(target["id"])
        events = self._recent_events.get(key)
        if events is not None:
            self._keep_events(key, events)
            return events
        if self._done and self._done[-1] is target:
            n = len(self._done)
            before = (self._state.clone() if self._state_len == n - 1
                      else self._rebuild(n - 1))
            before.seq = n
            events = _apply(self.rules, before, target, check=False)
            self._state, self._state_len = before, n
        else:
            after = self.state.clone()
            after.seq = len(self._done) + 1
            events = _apply(self.rules, after, target, check=False)
        self._keep_events(key, events)
        return events

    def _set_state(self, st: GameState, undone_line: bool) -> None:
        """``st`` is the state after the actions in force, the last of them new: snapshots
        beyond the previous ones (of the undone line, if there was one: else there are none)
        are dropped, and one taken if due."""
        n = len(self._done)
        if undone_line:
            for k in [k for k in self._snapshots if k >= n]:
                del self._snapshots[k]
        if n % SNAPSHOT_EVERY == 0:
            self._snapshots[n] = st.clone()
        self._state = st
        self._state_len = n

    def _undo_redo(self, action: dict[str, Any]) -> dict[str, Any]:
        """Move one action (returned) between the actions in force and the redo stack; the
        state is rebuilt when next asked for (so a log of undo/redo pairs loads without
        rebuilding: the events of the action moved are kept, :meth:`_events_again`)."""
        entity = action["entity"]
        if action["type"] == "undo":
            if not self._done:
                raise RuleError("undo", "there is nothing to undo")
            self._check_barrier()
            target = self._done[-1]
        else:
            if not self._undone:
                raise RuleError("redo", "there is nothing to redo")
            target = self._undone[-1]
        if target["entity"] != entity:
            raise RuleError(action["type"], f"the action to {action['type']} was "
                            f"{target['entity']}'s, not {entity}'s")
        self.log.append(action)
        if action["type"] == "undo":
            self._undone.append(self._done.pop())
        else:
            self._done.append(self._undone.pop())
        return target

    def _barrier_refusal(self) -> RuleError | None:
        """Why the last action in force may not be undone (see :meth:`_check_barrier`)."""
        return None if len(self._done) > self._state.undo_barrier else self._barrier_error()

    def _barrier_error(self) -> RuleError:
        revealing = self._done[self._state.undo_barrier - 1]
        return RuleError("undo", f"{revealing['type']} (action {revealing['id']}) revealed "
                         f"secret information ({self._state.undo_barrier_reason}); it and "
                         "the actions before it cannot be undone")

    def _check_barrier(self) -> None:
        """Hidden information: an action that revealed a secret (every bond, 2.5.3; a bid's
        cities, 4.3.2; whether the BBCI director's bid names its two cities, 2.6.2) cannot be
        undone, nor any action before it - the secret has been seen and would be played on.
        Redo needs no barrier: only actions after the last reveal can have been undone.
        The barrier is read from the last state built, which may be a few undos or redos
        away: they never move it (an action that revealed cannot be undone, so the actions
        between that state and now, every one undone at some time, revealed nothing)."""
        refusal = self._barrier_refusal()
        if refusal is not None:
            raise refusal

    def _rebuild(self, n: int) -> GameState:
        """The state after the first ``n`` actions in force (accepted once): the nearest
        snapshot at or before ``n``, then the rest applied unchecked, snapshots taken on the
        way.  The line of actions is the one undo and redo move along."""
        line = [*self._done, *reversed(self._undone)]
        k = max(k for k in self._snapshots if k <= n)
        st = self._snapshots[k].clone()
        for i in range(k, n):
            st.seq = i + 1
            _apply(self.rules, st, line[i], check=False)
            if st.seq % SNAPSHOT_EVERY == 0 and st.seq not in self._snapshots:
                self._snapshots[st.seq] = st.clone()
        return st

    def per_state(self, key: str, build: Callable[[], T]) -> T:
        """``build()`` for the current state, kept until the state changes: what every viewer
        of one state is shown alike (the turn model's public tables) is worked out once for
        all of them.  Only for values that hold no secret and that no reader changes."""
        st = self.state
        if self._kept_for is not st:
            self._kept_for, self._kept = st, {}
        if key not in self._kept:
            self._kept[key] = build()
        value: T = self._kept[key]
        return value

    def fork(self) -> Game:
        """An independent copy of this game, to try actions on without touching this one;
        cheap at any length (the log is copied, the states are shared: the engine never
        changes a state it has handed out)."""
        game = Game(self.settings)
        game.log = list(self.log)
        game._done, game._undone = list(self._done), list(self._undone)
        game._deciders = dict(self._deciders)
        game._recent_events = OrderedDict(self._recent_events)
        game._snapshots = dict(self._snapshots)
        game._state, game._state_len = self._state, self._state_len
        return game

    def at(self, n: int) -> Game:
        """A new game holding only the first ``n`` actions in force of this one, renumbered
        1..n (no undone actions, nothing to redo): the position before action ``n + 1`` in
        force, rebuilt from the nearest snapshot, to look at or play on from there."""
        if not 0 <= n <= len(self._done):
            raise InputError(f"at: the number of actions must be 0 to {len(self._done)}, "
                             f"not {n}")
        game = Game(self.settings)
        game.log = [{**a, "id": i} for i, a in enumerate(self._done[:n], start=1)]
        game._done = list(game.log)
        game._snapshots = {k: v for k, v in self._snapshots.items() if k <= n}
        game._state, game._state_len = self._rebuild(n), n
        return game

    @classmethod
    def replay(cls, settings: Settings, actions: Iterable[dict[str, Any]], *,
               check: bool = True) -> Game:
        """The game after ``actions`` (undo and redo included).  ``check=True`` is
        ``Game(settings, actions)``; ``check=False`` is for trusted logs only (see the module
        docstring): several times faster, and an illegal action goes undetected."""
        if check:
            return cls(settings, actions)
        game = cls(settings)
        game.log = [dict(a) for a in actions]
        game._done, game._undone = undo_stacks(game.log)
        # Built now: the undo barrier is read from the last state built.
        game._state, game._state_len = game._rebuild(len(game._done)), len(game._done)
        return game

    @classmethod
    def positions(cls, settings: Settings, actions: Iterable[dict[str, Any]],
                  ) -> Iterator[tuple[Game, dict[str, Any]]]:
        """Each action of a trusted log with the game just before it: one game, moved on by
        the action (without checks, as :meth:`replay` with ``check=False``) when the next is
        asked for.  To look at every position of a log, or to try actions on a :meth:`fork`
        of one, at the cost of one unchecked replay."""
        game = cls(settings)
        for action in actions:
            yield game, action
            game._process(action, in_place=False, check=False)

    # --- queries ----------------------------------------------------------------------------

    def active_entities(self) -> list[tuple[str, str]]:
        return expected_entities(self.rules, self.state)

    def legal_actions(self, entity: str) -> list[dict[str, Any]]:
        """Every action the entity may take now, each ready for :meth:`process` as it is (the
        next id filled in, ``created_at`` 0: replace it to record a time).  Tile lays and bases
        come from the construction module, runs from the router with the optimum first; a bond
        or price is offered in steps of £10."""
        extra = {"id": self.next_id(), "created_at": 0}
        return [{**a, **extra} for a in _legal_actions(self.rules, self.state, entity)]

    def disabled_options(self, entity: str) -> list[Disabled]:
        """The options of ``entity`` that exist but are not possible now, each with the
        engine's reason (its step's ``disabled``), citing this game's edition."""
        edition = self.rules.ed.name
        out = []
        for item in _disabled_options(self.rules, self.state, entity):
            reason = in_own_numbering(edition, item.reason)
            assert isinstance(reason, RuleError)
            out.append(Disabled(item.action, reason))
        return out

    def why_not(self, action: dict[str, Any]) -> RuleError | None:
        """Why ``action`` is not possible now, as its step knows it without trying it (a type
        the step does not take, one of its disabled options), citing this game's edition;
        None when the step has nothing to say (``process`` then judges it)."""
        step = current_step(self.state)
        if step is None:
            return None
        reason = step.why_not(self.rules, self.state, action)
        if reason is None:
            return None
        cited = in_own_numbering(self.rules.ed.name, reason)
        assert isinstance(cited, RuleError)
        return cited
    def decider(self, entity: str) -> str | None:
        """The player who decides for ``entity`` now: a player himself; for a company its
        director (3.2.1; 17.1, 22.1), else its manager (3.4.1; 24.1): the previous director or
        the longest holder, and "If no shares are held by anyone, the Manager is the holder of
        the Elephant".  None only for a company while nobody holds the Elephant (before the
        contract bids seat the players, 2.5.3 / 15): nobody decides for it, and it cannot act.
        An unknown entity is refused (``InputError``)."""
        st = self.state
        if entity in st.companies:
            return controller(st, st.companies[entity])
        if entity in self.settings.players:
            return entity
        raise InputError(f"entity: unknown player or company {entity!r}")

    def decided_by(self, action: dict[str, Any]) -> str | None:
        """The player who decided ``action``, an action in force or one a redo would put back
        (found by its id): the decider of its entity just before it was applied."""
        if action["id"] in self._deciders:
            return self._deciders[action["id"]]
        line = [*self._done, *reversed(self._undone)]
        i = next((i for i, a in enumerate(line) if a["id"] == action["id"]), None)
        if i is None:
            raise InputError(f"action.id: {action['id']!r} is no action in force or undone")
        entity = str(line[i]["entity"])
        if entity not in self._state.companies:
            return entity
        st = self._rebuild(i) if i != self._state_len else self._state
        self._deciders[action["id"]] = who = controller(st, st.companies[entity])
        return who

    def undo_target(self, *seats: str, bots: Collection[str] = ()) -> dict[str, Any] | None:
        """The action that the next ``undo`` by one of ``seats`` takes back now (the last in
        force), or None: the last of :meth:`undo_targets`."""
        targets = self.undo_targets(*seats, bots=bots)
        return targets[-1] if targets else None

    def undo_targets(self, *seats: str, bots: Collection[str] = ()) -> list[dict[str, Any]]:
        """The actions in force that an undo by one of ``seats`` takes back now, oldest
        first: his own last decision and, after it, the replies of the seats in ``bots`` (the
        players a program plays: the interfaces know them, the settings do not) - one
        ``undo`` each, the last first.  Empty when :meth:`why_no_undo` has a reason."""
        return self._undo_chain(seats, bots)[0]

    def why_no_undo(self, *seats: str, bots: Collection[str] = ()) -> RuleError | None:
        """Why ``seats`` may take nothing back now, or None.  A player takes back only his
        own last decision (a shared hotseat screen acts for all its seats at once), with the
        bots' replies after it but never another human's action, and never an action that
        revealed a secret nor any before it (the undo barrier, :meth:`_check_barrier`)."""
        return self._undo_chain(seats, bots)[1]

    def _undo_chain(self, seats: Collection[str], bots: Collection[str],
                    ) -> tuple[list[dict[str, Any]], RuleError | None]:
        done = self._done
        if not done:
            return [], RuleError("undo", "there is nothing to undo")
        barrier = self._state.undo_barrier  # never moved by undo or redo (_check_barrier)
        for i in range(len(done) - 1, -1, -1):
            if i < barrier:
                return [], self._barrier_error()
            who = self._decided_in_force(i)
            if who in seats:
                return done[i:], None
            if who not in bots:
                return [], RuleError("undo", f"{agree(who or 'another player', 'has acted')} "
                                     "since your last action, and nobody may take back "
                                     "another player's move (you may undo only your own last "
                                     "action, with the bots' moves after it)")
        return [], RuleError("undo", "you have no action to take back")

    def _decided_in_force(self, i: int) -> str | None:
        """Who decided the ``i``-th action in force.  Not yet known (a game replayed without
        checks), it is found with the others of its stretch in one replay from the snapshot
        at or before it, so a walk back over many bot moves costs one replay, not one each."""
        action = self._done[i]
        if action["id"] not in self._deciders:
            k = max(k for k in self._snapshots if k <= i)
            st = self._snapshots[k].clone()
            for j in range(k, i + 1):
                earlier = self._done[j]
                co = st.companies.get(earlier["entity"])
                decided = earlier["entity"] if co is None else controller(st, co)
                self._deciders.setdefault(earlier["id"], decided)
                if j < i:
                    st.seq = j + 1
                    _apply(self.rules, st, earlier, check=False)
        return self._deciders[action["id"]]

    def redo_target(self, *seats: str) -> dict[str, Any] | None:
        """The undone action that a ``redo`` by one of ``seats`` puts back now (his own, the
        last undone), or None."""
        if not self._undone:
            return None
        target = self._undone[-1]
        return target if self.decided_by(target) in seats else None

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


def replay_events(settings: Settings, actions: Iterable[dict[str, Any]]
                  ) -> Iterator[tuple[dict[str, Any], list[Event]]]:
    """Each action of a log (undo and redo included), processed in turn on a new game, with
    the events it set off: the engine's log of what happened, which the narration tells."""
    game = Game(settings)
    for action in actions:
        yield action, game.process(action)


# effective_actions and redo_stack are part of the engine's API (undo_log.py holds them).
__all__ = ["ENGINE_VERSION", "Event", "Game", "effective_actions", "redo_stack",
           "replay_events"]
