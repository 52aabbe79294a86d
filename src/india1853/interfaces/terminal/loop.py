"""The hotseat game loop: whoever must act decides, at the keyboard or by bot, until the end.

Each decision of a human clears the screen and shows the state and the numbered legal actions;
a bad line (unknown command, illegal move, garbage number) prints one clear message and the same
prompt again.  Secret choices, the bond (2.5.2) and the cities of a bid (2.5.4), are typed with
hidden input after a "pass the keyboard" screen, and the screen is cleared afterwards; the
public log never shows them until they are revealed (2.5.3, 4.3).

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

from india1853.errors import India1853Error, InputError
from india1853.interfaces.bots import Bot, make_bot
from india1853.interfaces.game_render import describe_run, game_board_svg, optimal_run
from india1853.interfaces.narrate import game_log, narrate
from india1853.interfaces.render import write_picture
from india1853.interfaces.terminal import screen
from india1853.interfaces.terminal.console import Console, EndOfInput
from india1853.interfaces.terminal.parse import Choice, Meta, Request, parse, resolve
from india1853.interfaces.terminal.savefile import SaveFile
from india1853.interfaces.terminal.savefile import Table as Seating
from india1853.rules.game.game import Game, effective_actions

SECRET_ROUNDS: frozenset[str] = frozenset({"bonds", "claims"})
RECENT_LINES = 8


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
    recent: list[str] = field(default_factory=list)
    bots: dict[str, Bot] = field(default_factory=dict)
    last_human: str | None = None
    savefile: SaveFile | None = None

    def __post_init__(self) -> None:
        players = self.game.settings.players
        for seat, (player, bot_name) in enumerate(sorted(self.seating.bots.items())):
            if player not in players:
                raise InputError(f"--bots: {player!r} is not a player "
                                     f"({', '.join(players)})")
            self.bots[player] = make_bot(bot_name, player, self.game.settings.seed + seat)

    @property
    def humans(self) -> list[str]:
        return [p for p in self.game.settings.players if p not in self.bots]

    # --- the loop -----------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the player quits; 0 in both cases."""
        self.save()
        try:
            while not self.game.finished:
                entity, entity_type = self.game.active_entities()[0]
                player = self.decider(entity, entity_type)
                if player in self.bots:
                    self.bot_turn(self.bots[player], entity)
                else:
                    self.human_turn(player, entity, entity_type)
        except (Quit, EndOfInput):
            self.console.print(Text(self.saved_message()))
            return 0
        except KeyboardInterrupt:
            self.console.print(Text("\n" + self.saved_message()))
            raise
        self.show_end()
        return 0

    def recall_recent(self, count: int = RECENT_LINES) -> None:
        """Narrate the last actions of a resumed game, so the table sees what happened last.
        The log was checked when loaded, so the game before them is rebuilt without checks."""
        log = self.game.log
        start = max(0, len(log) - count)
        earlier = Game.replay(self.game.settings, log[:start], check=False)
        for entry in game_log(earlier, log[start:]):
            self.recent.extend(entry.lines)

    def saved_message(self) -> str:
        return (f"Game saved to {self.save_path} ({len(self.game.log)} actions); resume it "
                f"with india1853 play --load {self.save_path}")

    def decider(self, entity: str, entity_type: str) -> str:
        """The player who decides for ``entity``: the player, or the company's controller
        (its director, 3.2; a minor's manager)."""
        if entity_type == "player":
            return entity
        view = self.game.view(None)
        company = view["companies"][entity]
        who = company.get("controller") or company.get("director")
        return str(who) if who else self.game.settings.players[0]

    def submit(self, action: dict[str, Any]) -> tuple[str, ...]:
        """Process one action (raises on a refusal, leaving the game as it was), save it, and
        add its public narration to the recent lines."""
        before = self.game.view(None)
        full = {**action, "id": self.game.next_id(), "created_at": int(self.clock())}
        with interrupts_held():
            self.game.process(full)
            self.save()
        line = narrate(self.game.rules.ed, full, before, self.game.view(None))
        self.recent.extend(line.lines)
        del self.recent[:-RECENT_LINES * 4]
        return line.lines

    def save(self) -> None:
        if self.savefile is None:
            self.savefile = SaveFile(self.save_path, self.seating)
        self.savefile.write(self.game)

    # --- bots ---------------------------------------------------------------------------

    def bot_turn(self, bot: Bot, entity: str) -> None:
        legal = self.game.legal_actions(entity)
        if not legal:
            raise India1853Error(f"the engine offers {entity} no legal action")
        action = bot.choose(self.game.view(bot.player), legal)
        for line in self.submit(action):
            self.console.print(Text(line, style="dim"))

    # --- humans -------------------------------------------------------------------------

    def human_turn(self, player: str, entity: str, entity_type: str) -> None:
        legal = self.game.legal_actions(entity)
        secret = self.game.state.round in SECRET_ROUNDS and any(
            a["type"] in ("place_bond", "claim_city") for a in legal)
        if secret and (len(self.humans) > 1 or self.last_human not in (None, player)):
            self.pass_keyboard(player)
        self.last_human = player
        # The player at the keyboard sees his own secrets only behind the "pass the keyboard"
        # screen, or when no other human sits at the table.
        viewer = player if (secret or len(self.humans) == 1) else None
        self.console.clear()
        self.console.print(screen.turn_screen(self.game, viewer, entity, legal,
                                              self.recent[-RECENT_LINES:]))
        prompt = f"{entity}{'' if entity == player else f' ({player})'}> "
        while True:
            line = (self.console.secret(prompt + "(hidden) ") if secret
                    else self.console.prompt(prompt))
            try:
                if self.handle(line, player, entity, entity_type, legal, viewer):
                    break
            except India1853Error as exc:
                self.console.print(Text(f"error: {exc}", style="bold red"))
        if secret:
            # Nothing of the secret stays on screen for the next player.
            self.console.clear()

    def handle(self, line: str, player: str, entity: str, entity_type: str,
               legal: list[dict[str, Any]], viewer: str | None) -> bool:
        """Act on one typed line; True once an action was accepted."""
        command = parse(line, company_turn=entity_type == "company")
        if isinstance(command, Meta):
            return self.meta(command, player, legal, viewer)
        assert isinstance(command, (Choice, Request))
        self.submit(resolve(command, legal, entity, entity_type))
        return True

    def meta(self, command: Meta, player: str, legal: list[dict[str, Any]],
             viewer: str | None) -> bool:
        name = command.name
        if name == "quit":
            raise Quit
        if name == "help":
            self.console.print(screen.help_table())
        elif name == "list":
            view = self.game.view(viewer)
            only = command.argument or None
            self.console.print(screen.options_table(legal, view, self.game, only=only,
                                                    everything=True))
        elif name == "board":
            self.console.print(screen.board_table(self.game.view(viewer), self.game))
            picture = write_picture(game_board_svg(self.game),
                                    self.save_path.with_suffix(".board.svg"))
            self.console.print(Text(f"The board is drawn in {picture}"))
        elif name == "routes":
            self.show_routes(legal)
        elif name == "log":
            self.show_log()
        elif name in ("undo", "redo"):
            self.undo_redo(name, player)
            return True
        return False

    def show_routes(self, legal: list[dict[str, Any]]) -> None:
        """The optimal run of the company operating now (4.5, 4.6), or of the company named
        by the run option; outside the operating round, say so."""
        turn = self.game.view(None).get("turn")
        if turn is None:
            self.console.print(Text("No company is operating now."))
            return
        run = optimal_run(self.game, str(turn["company"]))
        self.console.print(Text(describe_run(run)))
        if turn.get("routes") or any(a["type"] == "run_routes" for a in legal):
            self.console.print(screen.routes_panel(legal, self.game.view(None)))

    def show_log(self) -> None:
        log = self.game.to_log()["actions"]
        fresh = Game(self.game.settings)
        for entry in game_log(fresh, log):
            self.console.print(Text(f"{entry.id:>5}  " + "\n       ".join(entry.lines)))

    def undo_redo(self, kind: str, player: str) -> None:
        """Take back this player's last action (and any bot actions after it), or redo."""
        if kind == "redo":
            stack = redo_stack(self.game.log)
            if not stack:
                raise India1853Error("redo: there is nothing to redo")
            target = stack[-1]
            self.submit({"type": "redo", "entity": target["entity"],
                         "entity_type": target["entity_type"]})
            return
        mine = {player} | {c for c, v in self.game.view(None)["companies"].items()
                           if v.get("controller") == player or v.get("director") == player}
        done = effective_actions(self.game.log)
        if not any(a["entity"] in mine for a in done):
            raise India1853Error("undo: you have no action to take back")
        while True:
            target = effective_actions(self.game.log)[-1]
            self.submit({"type": "undo", "entity": target["entity"],
                         "entity_type": target["entity_type"]})
            if target["entity"] in mine:
                return

    def pass_keyboard(self, player: str) -> None:
        self.console.clear()
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


def redo_stack(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The undone actions that ``redo`` would restore, the next one last."""
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
    return undone
