"""`india1853 play` end to end: the real command in a pseudo-terminal, typed at like a person.

Each test starts the command under a pty (so the terminal's echo, hidden input and Ctrl-C
behave as at a real keyboard), reads the screen with a timeout (a hang fails quickly) and
checks the save file the command writes after every action.  The command is forked from a
process that imported it once (ptyfork.py: its own session, the pty its controlling terminal,
``main(argv)`` as the executable runs it), which spares each start a fresh interpreter's
second of imports; one test starts the installed ``india1853`` executable itself.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import ptyfork
import pytest

from india1853.rules.game.game import Game

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")
# The installed command (the console script beside the interpreter).
EXECUTABLE = str(Path(sys.executable).with_name("india1853"))


def _visible(raw: bytes) -> str:
    return ANSI.sub("", raw.decode("utf-8", "replace"))


class Terminal:
    """A command running in a pseudo-terminal of 140 x 60 characters (or ``size``): forked
    from the fork server, or with ``executable`` the installed ``india1853`` started afresh."""

    def __init__(self, args: list[str], cwd: Path, size: tuple[int, int] = (140, 60),
                 executable: bool = False) -> None:
        columns, lines = size
        env = {**os.environ, "TERM": "xterm", "COLUMNS": str(columns), "LINES": str(lines)}
        self.forked = not executable
        if self.forked:
            fd, slave = os.openpty()
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
            try:
                pid = ptyfork.spawn(args, slave, str(cwd), env)
            finally:
                os.close(slave)  # the command's end only: its exit closes the terminal
        else:
            pid, fd = pty.fork()
            if pid == 0:  # the child: becomes the command, the pty its controlling terminal
                # As a shell starts a command: Ctrl-C's signal neither ignored nor blocked
                # (both survive exec, and an earlier test in this worker may have left either).
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_SETMASK, set())
                os.chdir(cwd)
                os.execve(EXECUTABLE, [EXECUTABLE, *args], env)
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.pid, self.fd = pid, fd
        self.raw = b""
        self.text = ""
        self.final = 0  # bytes of raw whose text (final_text) no later chunk can change
        self.final_text = ""
        self.pos = 0
        self.status: int | None = None

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError as exc:
            if exc.errno == errno.EIO:  # the child closed the terminal
                return False
            raise
        if not chunk:
            return False
        # A chunk may end inside an escape or a character; neither spans a newline, so the
        # text up to the last newline is final and only what follows it is decoded again
        # (decoding the whole output at every read made a long game's reading quadratic).
        self.raw += chunk
        line_end = self.raw.rfind(b"\n", self.final) + 1
        if line_end > self.final:
            self.final_text += _visible(self.raw[self.final:line_end])
            self.final = line_end
        self.text = self.final_text + _visible(self.raw[self.final:])
        return True

    def expect(self, pattern: str, timeout: float = 30.0) -> str:
        """Wait for ``pattern`` (a regex) after the last match; return the text up to it."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.text, self.pos)
            if found:
                seen = self.text[self.pos:found.end()]
                self.pos = found.end()
                return seen
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(min(left, 0.5)):
                if regex.search(self.text, self.pos):
                    continue
                tail = self.text[-1500:]
                raise AssertionError(f"timed out waiting for {pattern!r}; screen ends:\n{tail}")

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\r").encode())

    def interrupt(self) -> None:
        os.write(self.fd, b"\x03")

    def wait(self, timeout: float = 30.0) -> int:
        """Read to the end and return the exit status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            code = self._exit_status()
            if code is not None:
                while self._read(0.05):
                    if not select.select([self.fd], [], [], 0)[0]:
                        break
                self.status = code
                os.close(self.fd)
                return self.status
            self._read(0.1)
        self.kill()
        raise AssertionError(f"the command did not end; screen ends:\n{self.text[-1500:]}")

    def _exit_status(self, timeout: float = 0.0) -> int | None:
        """The command's exit status once it ended (it is then reaped), else None."""
        if self.forked:
            return ptyfork.wait(self.pid, timeout)
        done, status = os.waitpid(self.pid, 0 if timeout else os.WNOHANG)
        return os.waitstatus_to_exitcode(status) if done else None

    def kill(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                self._exit_status(timeout=30.0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.status = -9
            os.close(self.fd)


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    started: list[Terminal] = []
    yield started
    for t in started:
        t.kill()


def start(terminals: list[Terminal], cwd: Path, *args: str,
          size: tuple[int, int] = (140, 60), executable: bool = False) -> Terminal:
    t = Terminal(list(args), cwd, size, executable)
    terminals.append(t)
    return t


def saved(path: Path) -> list[dict[str, object]]:
    actions = json.loads(path.read_text(encoding="utf-8"))["actions"]
    assert isinstance(actions, list)
    return actions


GAMES = Path(__file__).parents[1] / "games"
# The actions of the stored game left for the bots to play (its last operating rounds).
BOTS_PLAY_LAST = 50

HUMAN_VS_BOTS = ("play", "--players", "Ann,Bob,Cat", "--bots", "Bob,Cat", "--bot", "greedy",
                 "--seed", "7", "--save", "game.json")


def test_bad_input_gets_a_clear_message_and_the_same_prompt(
        terminals: list[Terminal], tmp_path: Path) -> None:
    t = start(terminals, tmp_path, *HUMAN_VS_BOTS)
    t.expect(r"write down your bond")
    t.expect(r"Ann> \(hidden\) ")
    for line, message in [
        ("frobnicate", r"error: unknown command 'frobnicate'"),
        ("999", r"error: 999: choose a number from 1 to \d+"),
        ("12abc", r"error: unknown command '12abc'"),
        ("bond lots", r"error: bond: 'lots' is not a whole number"),
        ("bond 10", r"error: rule 2\.5\.2: the minimum bond with 3 players is £80"),
        ("lay H24 5", r"error: usage: lay HEX TILE ROTATION"),
        ("", r"error: type a number from the list or a command"),
    ]:
        t.send(line)
        t.expect(message)
        t.expect(r"Ann> \(hidden\) ")
    assert saved(tmp_path / "game.json") == []
    t.send("bond 135")  # off the list's £10 steps: accepted as typed
    t.expect(r"Bonds revealed \(2\.5\.3\):.*Ann £135")
    t.expect(r"Ann> \(hidden\) ")
    t.send("claim Atlantis EIR")
    t.expect(r"error: rule 2\.5\.8: 'Atlantis' is not a city that a bid may name")
    t.expect(r"Ann> \(hidden\) ")
    t.send("quit")
    assert t.wait() == 0
    assert "Game saved to game.json" in t.text
    # The secret bond was typed without echo: it appears only once revealed.
    assert "135" not in t.text.split("Bonds revealed")[0]


def test_an_illegal_move_names_the_rule_and_keeps_the_game(
        terminals: list[Terminal], tmp_path: Path) -> None:
    t = start(terminals, tmp_path, *HUMAN_VS_BOTS)
    t.expect(r"Ann> \(hidden\) ")
    t.send("bond 80")
    t.expect(r"Ann> \(hidden\) ")
    before = saved(tmp_path / "game.json")
    t.send("buy EIR")  # a stock round action during the contract bids
    t.expect(r"error: rule 2\.5\.4: 'buy' is not possible now; expected 'claim' or 'pass'")
    t.expect(r"Ann> \(hidden\) ")
    assert saved(tmp_path / "game.json") == before
    t.send("quit")
    assert t.wait() == 0


def test_save_resume_undo_and_ctrl_c(terminals: list[Terminal], tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    t = start(terminals, tmp_path, *HUMAN_VS_BOTS)
    t.expect(r"Ann> \(hidden\) ")
    t.send("bond 100")
    t.expect(r"name a city \(secret\)")
    t.expect(r"Ann> \(hidden\) ")
    bids = len(saved(save))
    t.send("quit")
    assert t.wait() == 0

    # Resume: the same decision comes back; one more action is saved.
    t = start(terminals, tmp_path, "play", "--load", "game.json")
    screen = t.expect(r"Ann: name a city \(secret\)")
    # The recent lines of the resumed game are told again.
    t.expect(r"Bonds revealed \(2\.5\.3\):.*Ann £100")
    t.expect(r"Ann> \(hidden\) ")
    assert "Saving to game.json" in screen
    t.send("claim Bombay GIP")
    t.expect(r"Ann names a secret city and claims a share of GIP")
    t.expect(r"Ann> \(hidden\) ")
    after_claim = saved(save)
    assert len(after_claim) > bids
    assert {"type": "claim_city", "entity": "Ann", "city": "Bombay"}.items() <= next(
        a for a in after_claim if a["type"] == "claim_city" and a["entity"] == "Ann").items()

    # Undo takes back Ann's claim (and the bots' moves after it): Ann decides again.
    t.send("undo")
    t.expect(r"Ann> \(hidden\) ")
    log = saved(save)
    assert log[-1]["type"] == "undo"

    # Ctrl-C at the prompt stops the command; every accepted action is in the file.
    t.interrupt()
    assert t.wait() == 130
    assert saved(save) == log
    t = start(terminals, tmp_path, "play", "--load", "game.json")
    t.expect(r"Ann: name a city \(secret\)")
    t.send("quit")
    assert t.wait() == 0


def test_two_humans_pass_the_keyboard_for_secrets(
        terminals: list[Terminal], tmp_path: Path) -> None:
    t = start(terminals, tmp_path, "play", "--players", "Ann,Bob,Cat", "--bots", "Cat",
              "--seed", "3", "--save", "two.json")
    t.expect(r"Pass the keyboard to Ann")
    t.send("")
    t.expect(r"Ann> \(hidden\) ")
    t.send("bond 90")
    t.expect(r"Pass the keyboard to Bob")
    screen = t.expect(r"Bob, press Enter when ready")
    assert "£90" not in screen
    t.send("")
    t.expect(r"Bob> \(hidden\) ")
    t.send("quit")
    assert t.wait() == 0


def test_new_game_refuses_to_overwrite_a_save(terminals: list[Terminal],
                                              tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text("{}", encoding="utf-8")
    t = start(terminals, tmp_path, *HUMAN_VS_BOTS)
    assert t.wait() == 2
    assert re.search(r"^error: --save 'game\.json': the file exists", t.text, re.M)
    assert "Traceback" not in t.text


def test_a_bots_only_game_runs_to_the_end(terminals: list[Terminal], tmp_path: Path) -> None:
    # The last rounds of a stored greedy game, resumed with bots in every seat: the bots play
    # on to the end (a whole game costs the process several CPU-seconds; starting a new one
    # with --bots is the other tests' part).
    stored = json.loads((GAMES / "greedy-3p-seed3.json").read_text(encoding="utf-8"))
    stored["actions"] = stored["actions"][:-BOTS_PLAY_LAST]
    stored["table"] = {"bots": {"Ann": "greedy", "Bob": "greedy", "Cat": "greedy"}}
    (tmp_path / "bots.json").write_text(json.dumps(stored), encoding="utf-8")
    t = start(terminals, tmp_path, "play", "--load", "bots.json")
    t.expect(r"Game over", timeout=90)
    t.expect(r"Final scores \(5\.2\)")
    assert t.wait() == 0
    data = json.loads((tmp_path / "bots.json").read_text(encoding="utf-8"))
    assert data["table"] == {"bots": {"Ann": "greedy", "Bob": "greedy", "Cat": "greedy"}}
    assert len(data["actions"]) > len(stored["actions"])

    # The save is the stored game (replayed checked by tests/game/test_fixtures.py) and the
    # bots' actions after it, each checked by the engine here as a load would.
    kept = len(stored["actions"])
    assert data["actions"][:kept] == stored["actions"]
    engine_log = {k: v for k, v in data.items() if k != "table"}
    game = Game.from_log({**engine_log, "actions": stored["actions"]}, check=False)
    for action in data["actions"][kept:]:
        game.process(action)
    assert game.to_log() == engine_log
    assert game.finished
    for name, score in game.scores().items():
        assert re.search(rf"{name}\s*│\s*£{score}", t.text)


def test_ctrl_c_during_a_bots_game_keeps_a_valid_save(terminals: list[Terminal],
                                                     tmp_path: Path) -> None:
    # The installed executable, started afresh as a shell would (the other tests fork it).
    t = start(terminals, tmp_path, "play", "--players", "A,B,C,D", "--bots", "A,B,C,D",
              "--bot", "greedy", "--seed", "5", "--save", "bots.json", executable=True)
    t.expect(r"— Stock round 1 —")
    t.interrupt()
    assert t.wait() == 130
    found = re.search(r"Game saved to bots\.json \((\d+) actions\)", " ".join(t.text.split()))
    assert found, t.text[-500:]
    actions = saved(tmp_path / "bots.json")
    assert len(actions) == int(found.group(1)) > 0
    from india1853.interfaces.logfile import load_game

    game, _ = load_game(tmp_path / "bots.json")
    assert not game.finished and len(game.log) == len(actions)


ERASE_SCROLLBACK = b"\x1b[3J"


def _visible_after(raw: bytes, start: int) -> str:
    return ANSI.sub("", raw[start:].decode("utf-8", "replace"))


def test_a_secret_screen_leaves_nothing_in_the_scrollback(
        terminals: list[Terminal], tmp_path: Path) -> None:
    """Two humans: after Ann's secret claim (and an error message naming her city) the screen
    and the terminal's scrollback are erased before Bob's turn, and nothing of her secret
    reaches the terminal after that."""
    t = start(terminals, tmp_path, "play", "--players", "Ann,Bob,Cat", "--bots", "Cat",
              "--seed", "3", "--save", "two.json")
    for name, bond in (("Ann", 100), ("Bob", 90)):
        t.expect(rf"Pass the keyboard to {name}")
        t.send("")
        t.expect(rf"{name}> \(hidden\) ")
        t.send(f"bond {bond}")
    t.expect(r"Pass the keyboard to Ann")
    t.send("")
    t.expect(r"Ann> \(hidden\) ")
    t.send("claim Peshawar EIR")
    t.expect(r"error: rule 2\.5\.5: Peshawar carries no share of EIR")
    t.expect(r"Ann> \(hidden\) ")
    t.send("claim Peshawar NWR")
    t.expect(r"Pass the keyboard to Bob")
    t.send("")
    t.expect(r"Bob> \(hidden\) ")
    raw = t.raw
    secret_screen = raw.rindex(b"carries no share of EIR")
    bobs_turn = raw.index(b"Pass the keyboard to Bob", secret_screen)
    erased = raw.rfind(ERASE_SCROLLBACK, 0, bobs_turn)
    assert erased > secret_screen, "the scrollback was not erased after Ann's secret"
    # The screen is cleared too (erase display, then erase the saved lines).
    assert raw.rfind(b"\x1b[2J", 0, erased) > secret_screen
    after = _visible_after(raw, erased)
    assert "carries no share" not in after
    # Peshawar may appear after it only as one of Bob's own options (grouped by city).
    assert "Peshawar" not in re.sub(r"claim Peshawar NWR|Peshawar £\d+ \(£\d+ left\):", "",
                                    after)
    assert "Bob names" not in after
    t.send("quit")
    assert t.wait() == 0
    claims = [a for a in saved(tmp_path / "two.json") if a["type"] == "claim_city"]
    assert any({"entity": "Ann", "city": "Peshawar", "company": "NWR"}.items() <= a.items()
               for a in claims)


GREEDY_GAME = Path(__file__).resolve().parents[1] / "games" / "greedy-3p-seed3.json"


def _save_at(tmp_path: Path, until: Callable[[Game, str, str], bool],
             bots: dict[str, str]) -> Path:
    """A save file of Ann, Bob and Cat at the first decision of the stored greedy game
    (tests/games/greedy-3p-seed3.json, replayed checked: playing the bots to the position cost
    seconds) where ``until(game, entity, decider)`` holds, seated with ``bots``."""
    from india1853.interfaces.logfile import Table, save_game
    from india1853.interfaces.simulate import decider
    from india1853.rules.game.settings import Settings

    data = json.loads(GREEDY_GAME.read_text(encoding="utf-8"))
    game = Game(Settings.from_json(data["settings"]))
    assert game.settings.players == ("Ann", "Bob", "Cat")
    for action in data["actions"]:
        entity, _ = game.active_entities()[0]
        if until(game, entity, decider(game, entity)):
            break
        game.process(action)
    else:
        raise AssertionError("the stored game never reaches the position")
    path = tmp_path / "game.json"
    save_game(path, game, Table(bots))
    return path


def test_bad_input_at_a_company_turn(terminals: list[Terminal], tmp_path: Path) -> None:
    """At a company's track step: each bad line gets one clear message and the same prompt,
    and the save does not change."""
    path = _save_at(tmp_path, lambda g, e, who: who == "Ann" and g.state.round == "operating"
                    and g.state.turn.step == "track",
                    {"Bob": "greedy", "Cat": "greedy"})
    before = saved(path)
    t = start(terminals, tmp_path, "play", "--load", "game.json")
    found = re.search(r"(\w+) \(director Ann\) operates: track", t.expect(r"operates: track"))
    assert found
    prompt = rf"{found.group(1)} \(Ann\)> "
    t.expect(prompt)
    for line, message in [
        ("frobnicate", r"error: unknown command 'frobnicate'"),
        ("999", r"error: 999: choose a number from 1 to \d+"),
        ("lay H24 5", r"error: usage: lay HEX TILE ROTATION"),
        ("lay Z99 5 1", r"error: hex: bad coordinate 'Z99'"),
        ("payout", r"error: rule 4\.1: 'payout/withhold' is not possible now"),
        ("sell GIP 1", r"error: sell: only a player does that, and it is \w+'s turn"),
        ("pass now", r"error: pass: 'now' left over"),
        ("bond 100", r"error: bond: only a player does that"),
        ("", r"error: type a number from the list or a command"),
    ]:
        t.send(line)
        t.expect(message)
        t.expect(prompt)
    t.send("quit")
    assert t.wait() == 0
    assert saved(path) == before


def test_mybid_shows_a_bid_privately_and_erases_it(terminals: list[Terminal],
                                                   tmp_path: Path) -> None:
    """Two humans in the stock round, where the screen hides every bid: mybid asks the others
    to look away, shows the player's own bond and cities, then erases the screen and the
    scrollback before the turn comes back."""
    path = _save_at(tmp_path, lambda g, e, who: g.state.round == "stock" and e in ("Ann", "Bob"),
                    {"Cat": "greedy"})
    from india1853.interfaces.logfile import load_game

    game, _ = load_game(path)
    who = game.active_entities()[0][0]
    cities = next(p for p in game.view(who)["players"] if p["name"] == who)["cities"]
    t = start(terminals, tmp_path, "play", "--load", "game.json")
    t.expect(rf"{who}> ")
    t.send("mybid")
    t.expect(rf"{who}, press Enter to see it")
    t.send("")
    shown = t.expect(r"Press Enter to hide it")
    assert f"{who}'s contract bid (secret)" in shown
    assert all(city in shown for city in cities)
    t.send("")
    t.expect(rf"{who}> ")
    erased = t.raw.rfind(ERASE_SCROLLBACK)
    assert erased > t.raw.rfind(b"Press Enter to hide it")
    after = _visible_after(t.raw, erased)
    assert "contract bid" not in after
    assert not any(city in after for city in cities)
    t.send("quit")
    assert t.wait() == 0


def _screen_lines(t: Terminal) -> list[str]:
    """The lines printed since the screen was last cleared, as the terminal shows them."""
    raw = t.raw[t.raw.rindex(b"\x1b[2J"):] if b"\x1b[2J" in t.raw else t.raw
    return ANSI.sub("", raw.decode("utf-8", "replace")).split("\n")


def test_the_screen_keeps_its_header_in_120_by_40(terminals: list[Terminal],
                                                    tmp_path: Path) -> None:
    """At 120 x 40 the last 40 lines of every screen (what the terminal shows) hold the round,
    whose turn it is and what is decided, with the rule explained, and no line is wider than
    the terminal: the bond, the claims (about 60 options), the stock round."""
    t = start(terminals, tmp_path, "play", "--players", "Ann,Bob,Cat", "--bots", "Bob,Cat",
              "--seed", "1", "--save", "g.json", size=(120, 40))
    checked: list[str] = []
    while not checked or checked[-1] != "stock":
        t.expect(r"Ann> (\(hidden\) )?$")
        visible = _screen_lines(t)[-40:]
        text = "\n".join(visible)
        assert "1853 India" in text, text
        assert all(len(line) <= 120 for line in visible)
        assert re.search(r"^\d+(\.\d+)*: \S", text, re.M), "no rule explained"
        if "write down your bond" in text:
            checked.append("bond")
            t.send("bond 150")
        elif "name a city (secret)" in text:
            checked.append("claims")
            # End the bid once the list offers it (or say why not: the last line).
            t.send("pass" if re.search(r"^ *\d+ +pass", text, re.M) else "1")
        else:
            assert "buy, sell or redeem" in text, text
            checked.append("stock")
    t.send("quit")
    assert t.wait() == 0
    assert checked[0] == "bond" and checked.count("claims") >= 4
