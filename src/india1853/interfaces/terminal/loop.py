"""The hotseat game loop: whoever must act decides, at the keyboard or by bot, until the end.

Each decision of a human clears the screen and shows the state, every move made since that
player's last turn (or the last few) and the numbered legal actions; a bad line (unknown
command, illegal move, garbage number) prints one clear message and the same prompt again.
Secret choices, the bond (2.5.2) and the cities of a bid (2.5.4), are typed with hidden input
after a "pass the keyboard" screen, and the screen and the terminal's scrollback are cleared
afterwards (and whenever the keyboard passes to another human); the public log never shows them
until they are revealed (2.5.3, 4.3).  ``mybid`` shows a player his own bid privately.

``undo`` takes back the player's own last action and the bots' actions after it, never another
human's (nor what the engine refuses to take back, such as a revelation of secrets); the lines
of the actions taken back leave the screen.

Every accepted action is saved at once (atomically, with Ctrl-C held back between the engine
accepting the action and the file being written), so an interruption never loses an accepted
action; ``india1853 play --load`` resumes from the file.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from rich.table import Table
from rich.text import Text

from india1853.errors import India1853Error
from india1853.interfaces.bots import Bot, decision_for, make_bot
from india1853.interfaces.game_render import describe_run, game_board_svg, optimal_run
from india1853.interfaces.logfile import SaveFile
from india1853.interfaces.logfile import Table as Seating
from india1853.interfaces.narrate import LogLine, game_log, narrate, observed
from india1853.interfaces.render import write_picture
from india1853.interfaces.render.board import BoardPainter
from india1853.interfaces.terminal import screen
from india1853.interfaces.terminal.board_text import local_board
from india1853.interfaces.terminal.console import Console, EndOfInput
from india1853.interfaces.terminal.parse import (
    Choice,
    Meta,
    Request,
    in_command_words,
    parse,
    resolve,
)
from india1853.rules.game.game import Game, effective_actions
from india1853.rules.game.turn import turn_model
from india1853.rules.game.wording import possessive

# The fewest lines of the public log a screen shows; more when more happened since the
# player's last turn.  RECENT_KEPT bounds the narrated actions kept in memory.
RECENT_LINES = 8
# The routes command waits at most about this long for the router: past it the screen shows
# the best run found so far, "not yet proven" (docs/routes.md, "Budget").
ROUTE_BUDGET_SECONDS = 2.0
RECENT_KEPT = 5_000


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C back until the block ends (the action is then saved), then deliver it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            raise KeyboardInterrupt


class Quit(Exception):
    """The player asked to stop."""


@dataclass
class Hotseat:
    """One terminal game in progress."""

    game: Game
    seating: Seating
    console: Console
    save_path: Path
    clock: Callable[[], float] = time.time
    # The narrated actions in force (an undo removes those it takes back), oldest first.
    recent: list[LogLine] = field(default_factory=list)
    bots: dict[str, Bot] = field(default_factory=dict)
    last_human: str | None = None
    savefile: SaveFile | None = None
    # For each human, the length of the log when his last screen was drawn.
    seen: dict[str, int] = field(default_factory=dict)
    redraw: Callable[[], None] | None = None
    # The turn model of the decision on screen (its options are the numbered list).
    model: dict[str, Any] = field(default_factory=dict)
    # The board last drawn to the picture beside the save file, and its painter (which
    # redraws only the hexes changed since).
    drawn_board: dict[str, Any] | None = None
    painter: BoardPainter | None = None
    # The tables of the last screens, drawn again only when they change.
    drawn: screen.Drawn = field(default_factory=screen.Drawn)

    def __post_init__(self) -> None:
        players = self.game.settings.players
        self.seating.check(players, "bots")
        for seat, (player, bot_name) in enumerate(sorted(self.seating.bots.items())):
            self.bots[player] = make_bot(bot_name, player, self.game.settings.seed + seat)

    @property
    def humans(self) -> list[str]:
        return [p for p in self.game.settings.players if p not in self.bots]

    # --- the loop -----------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the player quits; 0 in both cases."""
        self.save()
        try:
            self.write_board()
            while not self.game.finished:
                entity, entity_type = self.game.active_entities()[0]
                player = self.decider(entity)
                if player in self.bots:
                    self.bot_turn(self.bots[player], entity)
                else:
                    self.human_turn(player, entity, entity_type)
        except (Quit, EndOfInput):
            self.write_board()
            self.console.print(Text(self.saved_message()))
            return 0
        except KeyboardInterrupt:
            self.console.print(Text("\n" + self.saved_message()))
            raise
        self.write_board()
        self.show_end()
        return 0

    def recall_recent(self, count: int = RECENT_LINES) -> None:
        """Narrate the last actions in force of a resumed game, so the table sees what happened
        last.  The log was checked when loaded, so the game before them is rebuilt without
        checks; the actions are renumbered for the narration (undone ones leave gaps)."""
        done = effective_actions(self.game.log)
        start = max(0, len(done) - count)
        earlier = self.game.at(start)
        tail = done[start:]
        renumbered = [{**a, "id": start + k + 1} for k, a in enumerate(tail)]
        for action, entry in zip(tail, game_log(earlier, renumbered), strict=True):
            self.remember(LogLine(int(action["id"]), entry.entity, entry.lines))

    def remember(self, entry: LogLine) -> None:
        self.recent.append(entry)
        del self.recent[:-RECENT_KEPT]

    def recent_for(self, player: str) -> tuple[list[str], str]:
        """The log lines for ``player``'s screen and their title: every line since his last
        turn, so that no bot move goes unseen, or the last :data:`RECENT_LINES` if fewer."""
        since = self.seen.get(player)
        fresh = [line for e in self.recent if since is not None and e.id > since
                 for line in e.lines]
        if len(fresh) > RECENT_LINES:
            return fresh, f"Since {possessive(player)} last turn"
        lines = [line for e in self.recent for line in e.lines]
        return lines[-RECENT_LINES:], "Recent"

    def saved_message(self) -> str:
        return (f"Game saved to {self.save_path} ({len(self.game.log)} actions); resume it "
                f"with india1853 play --load {self.save_path}")

    def decider(self, entity: str) -> str:
        """The player who decides for ``entity`` (the engine's answer, ``Game.decider``)."""
        who = self.game.decider(entity)
        if who is None:
            raise India1853Error(f"{entity} must act but nobody decides for it")
        return who

    def submit(self, action: dict[str, Any], narrated: dict[str, Any] | None = None
               ) -> tuple[str, ...]:
        """Process one action (raises on a refusal, leaving the game as it was), save it, and
        add its public narration to the recent lines (``narrated``: the action to narrate
        instead, the one a redo puts back)."""
        full = {**action, "id": self.game.next_id(), "created_at": int(self.clock())}
        with interrupts_held():
            events = self.game.process(full)
            self.save()
        told = narrated or full
        line = narrate(self.game.rules.ed, observed(told), events)
        self.remember(line)
        return line.lines

    def save(self) -> None:
        if self.savefile is None:
            self.savefile = SaveFile(self.save_path, self.seating)
        # Synced to the disk when a person is next to act (or the game is over); between two
        # bots' moves the save is atomic but not synced, which would cost more than the move.
        self.savefile.write(self.game, durable=not self.bot_moves_next())

    def bot_moves_next(self) -> bool:
        if self.game.finished:
            return False
        entity, _ = self.game.active_entities()[0]
        return self.decider(entity) in self.bots

    @property
    def board_path(self) -> Path:
        return self.save_path.with_suffix(".board.svg")

    def write_board(self) -> None:
        """Draw the board beside the save file if a tile or a base changed since it was last
        drawn: at the start, before each human decision, and when the game stops, so that an
        open picture viewer follows the game (the bots' moves in between are drawn together:
        drawing after each of them would slow a bots' game many times over)."""
        board = self.game.view(None)["board"]
        if board == self.drawn_board and self.board_path.exists():
            return
        if self.painter is None or self.painter.ed is not self.game.rules.ed:
            self.painter = BoardPainter(self.game.rules.ed)
        write_picture(game_board_svg(self.game, painter=self.painter), self.board_path)
        self.drawn_board = board

    # --- bots ---------------------------------------------------------------------------

    def bot_turn(self, bot: Bot, entity: str) -> None:
        decision = decision_for(self.game, bot.player, entity)
        if not decision.legal:
            raise India1853Error(f"the engine offers {entity} no legal action")
        action = bot.choose(decision)
        for line in self.submit(action):
            self.console.print(Text(line, style="dim"))

    # --- humans -------------------------------------------------------------------------

    def human_turn(self, player: str, entity: str, entity_type: str) -> None:
        # The turn model asks the engine for the legal actions once: the numbered list, the
        # commands typed and the screen all use its options.
        model = turn_model(self.game, player)
        legal = screen.legal_actions(model, entity)
        # A bond or a claim is typed secretly; so is a bid's last pass: the screen then says
        # which claims the bid may not make and why, which tells of the secret cities.
        decision = screen.decision_of(model, entity)
        secret = bool(decision and decision["secret"])
        hotseat = len(self.humans) > 1
        new_player = self.last_human not in (None, player)
        if secret and (hotseat or new_player):
            self.pass_keyboard(player)
        self.last_human = player
        # The player at the keyboard sees his own secrets only behind the "pass the keyboard"
        # screen, or when no other human sits at the table.
        viewer = player if (secret or not hotseat) else None
        tables = model if viewer == player else turn_model(self.game, viewer)
        self.write_board()
        self.model = model
        recent, title = self.recent_for(player)
        self.seen[player] = len(self.game.log)
        local = local_board(model, self.game.rules.ed, entity)

        def draw(scrollback: bool) -> None:
            self.console.clear(scrollback=scrollback)
            self.console.print(screen.turn_screen(model, tables, entity, recent, title,
                                                  local_board=local,
                                                  contract=viewer == player,
                                                  drawn=self.drawn))

        # Between two humans the last one's screen leaves the scrollback too.
        draw(scrollback=hotseat and new_player)
        self.redraw = lambda: draw(scrollback=True)
        prompt = f"{entity}{'' if entity == player else f' ({player})'}> "
        try:
            while True:
                line = (self.console.secret(prompt + "(hidden) ") if secret
                        else self.console.prompt(prompt))
                try:
                    if self.handle(line, player, entity, entity_type, legal, viewer):
                        break
                except India1853Error as exc:
                    self.console.print(Text(f"error: {in_command_words(str(exc))}",
                                            style="bold red"))
        finally:
            self.redraw = None
            if secret:
                # Nothing of the secret stays on screen, nor in the scrollback, for the next
                # player: not the bid column, not an error message that named a city; also
                # when the player stops here (quit, Ctrl-C, Ctrl-D) and leaves the table.
                self.console.clear(scrollback=True)

    def handle(self, line: str, player: str, entity: str, entity_type: str,
               legal: list[dict[str, Any]], viewer: str | None) -> bool:
        """Act on one typed line; True once an action was accepted."""
        command = parse(line, company_turn=entity_type == "company")
        if isinstance(command, Meta):
            return self.meta(command, player, legal, viewer)
        assert isinstance(command, (Choice, Request))
        decision = screen.decision_of(self.model, entity)
        disabled = decision.get("disabled", []) if decision else []
        self.submit(resolve(command, legal, entity, entity_type, disabled))
        return True

    def meta(self, command: Meta, player: str, legal: list[dict[str, Any]],
             viewer: str | None) -> bool:
        name = command.name
        if name == "quit":
            raise Quit
        if name == "help":
            if command.argument:
                self.console.print(screen.rule_help_text(self.game.rules.ed.name,
                                                         command.argument))
            else:
                self.console.print(screen.help_table())
        elif name == "list":
            only = command.argument or None
            decision = screen.decision_of(self.model, legal[0]["entity"]) if legal else None
            self.console.print(screen.options_table(decision["options"] if decision else [],
                                                    only=only, everything=True))
            options = decision["options"] if decision else []
            for line in screen.warning_lines(
                    [o for o in options
                     if only is None or screen.option_text(o["action"]).startswith(only)]):
                self.console.print(line)
            for line in screen.disabled_lines(decision, only=only, everything=True):
                self.console.print(line)
        elif name == "board":
            self.console.print(screen.board_table(self.game.view(viewer), self.game.rules.ed))
            self.write_board()
            self.console.print(Text(f"The board is drawn in {self.board_path}"))
        elif name == "routes":
            self.show_routes()
        elif name == "log":
            self.show_log()
        elif name == "mybid":
            self.show_own_bid(player)
        elif name == "hint":
            self.show_hint(player, legal)
        elif name in ("undo", "redo"):
            self.undo_redo(name, player)
            return True
        return False

    def show_hint(self, player: str, legal: list[dict[str, Any]]) -> None:
        """What the strong bot would do now for ``player`` (bots/hint.py), from that player's
        view only; off in a game between humans unless started with ``--hints``."""
        if not (self.seating.hints or self.bots):
            self.console.print(Text("hint: hints are off in this game (start it with --hints, "
                                    "or play with a bot)", style="red"))
            return
        options = [a for a in legal if a.get("type") not in ("undo", "redo")]
        if not options:
            self.console.print(Text(f"hint: it is not {player}'s decision now", style="red"))
            return
        from india1853.interfaces.bots.hint import hint  # the strong bot loads when asked

        decision = decision_for(self.game, player, str(options[0]["entity"]))
        self.console.print(Text(hint(player, decision).line()))

    def show_routes(self) -> None:
        """The optimal run of the company operating now (4.5, 4.6): the run option's when it
        runs now, else what the router finds on the board as it stands; outside the operating
        round, say so."""
        turn = self.game.view(None).get("turn")
        if turn is None:
            self.console.print(Text("No company is operating now."))
            return
        if screen.run_option(self.model) is None:
            run = optimal_run(self.game, str(turn["company"]), ROUTE_BUDGET_SECONDS)
            self.console.print(Text(describe_run(run)))
        self.console.print(screen.routes_panel(self.model))

    def show_log(self) -> None:
        log = self.game.to_log()["actions"]
        fresh = Game(self.game.settings)
        for entry in game_log(fresh, log):
            self.console.print(Text(f"{entry.id:>5}  " + "\n       ".join(entry.lines)))

    def show_own_bid(self, player: str) -> None:
        """``mybid``: the player's own bond and contract cities (2.5.2, 2.5.4).  With another
        human at the table, only after he confirms that nobody else is looking, and the screen
        and the scrollback are cleared afterwards."""
        panel = screen.contract_panel(turn_model(self.game, player))
        if len(self.humans) == 1:
            self.console.print(panel)
            return
        self.console.clear(scrollback=True)
        self.console.print(Text(f"{possessive(player)} secret contract bid is next: the others "
                                "look away.", style="bold magenta"))
        try:
            answer = self.console.prompt(f"{player}, press Enter to see it (anything else: "
                                         "back) ")
            if not answer.strip():
                self.console.print(panel)
                self.console.prompt("Press Enter to hide it ")
        except BaseException:
            # Ctrl-C or Ctrl-D with the bid on screen: it must not stay there as the
            # program ends.
            self.console.clear(scrollback=True)
            raise
        if self.redraw is not None:
            self.redraw()
        else:
            self.console.clear(scrollback=True)

    def undo_redo(self, kind: str, player: str) -> None:
        if kind == "redo":
            self.redo(player)
        else:
            self.undo(player)

    def redo(self, player: str) -> None:
        """Put back the player's own action that ``undo`` took back (the bots then decide
        again): the engine's answer, ``Game.redo_target``."""
        target = self.game.redo_target(player)
        if target is None:
            other = self.game.redo_target(*self.game.settings.players)
            if other is None:
                raise India1853Error("redo: there is nothing to redo")
            who = self.game.decided_by(other)
            raise India1853Error(f"redo: the action to put back is {who}'s, and only {who} "
                                 "may put it back")
        # Redo restores the state after ``target``: the state now is the one before it.
        self.submit({"type": "redo", "entity": target["entity"],
                     "entity_type": target["entity_type"]}, narrated=target)

    def undo(self, player: str) -> None:
        """Take back ``player``'s last action and the bots' actions after it, never another
        human's: the engine's answer (``Game.undo_targets`` with the bot seats, never across a
        revelation of secrets).  Every undo is tried on a copy first, so a refusal changes
        nothing."""
        targets = self.undo_targets(player)
        trial = self.game.fork()
        for target in reversed(targets):
            trial.process({"type": "undo", "entity": target["entity"],
                           "entity_type": target["entity_type"], "id": trial.next_id(),
                           "created_at": int(self.clock())})
        with interrupts_held():
            self.game = trial
            self.save()
        gone = {int(t["id"]) for t in targets}
        self.recent = [e for e in self.recent if e.id not in gone]
        others = len(targets) - 1
        note = f"{possessive(player)} last action is taken back"
        if others:
            note += (f", with the {others} bot action{'s' if others > 1 else ''} after it "
                     "(the bots decide again)")
        self.remember(LogLine(len(self.game.log), player, (note,)))

    def undo_targets(self, player: str) -> list[dict[str, Any]]:
        """The actions in force that ``undo`` takes back for ``player``, oldest first: his
        last one and the bots' after it (the engine's answer, ``Game.undo_targets``).  Raises
        the engine's reason when there are none (another human acted since, a secret)."""
        targets = self.game.undo_targets(player, bots=self.bots)
        if not targets:
            refusal = self.game.why_no_undo(player, bots=self.bots)
            raise India1853Error(str(refusal).removeprefix("rule ") if refusal
                                 else "undo: you have no action to take back")
        return targets

    def pass_keyboard(self, player: str) -> None:
        self.console.clear(scrollback=True)
        self.console.print(Text(f"Pass the keyboard to {player}. The next choice is secret: "
                                "the others look away.", style="bold magenta"))
        self.console.prompt(f"{player}, press Enter when ready ")

    def show_end(self) -> None:
        view = self.game.view(None)
        self.console.print(Text(f"Game over ({view.get('end_reason') or 'finished'})",
                                style="bold"))
        table = Table(title="Final scores (5.2)", title_justify="left")
        table.add_column("player")
        table.add_column("score", justify="right")
        scores = view.get("scores") or self.game.scores()
        for name, score in sorted(scores.items(), key=lambda kv: -kv[1]):
            table.add_row(name, f"£{score}")
        self.console.print(table)
        self.console.print(Text(f"Game saved to {self.save_path}"))

