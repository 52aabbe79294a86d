"""``india1853 simulate``: the command line, the CSV, the summary and bad arguments."""

from __future__ import annotations

import contextlib
import csv
import io
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from india1853.errors import InputError
from india1853.interfaces.cli import main
from india1853.interfaces.commands.simulate import check_writable
from india1853.interfaces.simulate import (
    CSV_COLUMNS,
    GameResult,
    check_bots,
    simulate,
    summarise,
)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@dataclass(frozen=True)
class Run:
    """One ``india1853 simulate`` command line run in process: its status, its CSV and what it
    printed."""

    status: int
    csv: str
    rows: list[dict[str, str]]
    printed: str


def _simulate(out: Path, *options: str) -> Run:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = main(["simulate", "--games", "2", "--bots", "greedy,greedy,greedy",
                       "--seed", "4", "--out", str(out), *options])
    return Run(status, out.read_text(encoding="utf-8"), _rows(out), printed.getvalue())


@pytest.fixture(scope="module")
def one_job(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """Two greedy games to the end, played by one job (each game costs several CPU-seconds).
    The shortened game (2.4: the smaller bank) is a whole second-edition game that ends
    sooner: finished games' CSV at three quarters of the full game's CPU."""
    return _simulate(tmp_path_factory.mktemp("one") / "results.csv",
                     "--variant", "shortened_game")


def test_two_tiny_games_write_the_documented_csv(one_job: Run) -> None:
    assert one_job.status == 0
    header = one_job.csv.splitlines()[0]
    assert header.split(",") == list(CSV_COLUMNS)
    rows = one_job.rows
    assert [r["game"] for r in rows] == ["1", "2"]
    assert [r["seed"] for r in rows] == ["4", "5"]
    for r in rows:
        assert r["bots"] == "greedy;greedy;greedy"
        assert r["edition"] == "second"
        assert r["end_reason"] in ("bank_broken", "share_price")
        scores = [int(s) for s in r["scores"].split(";")]
        assert len(scores) == 3
        winners = [int(s) for s in r["winners"].split(";")]
        assert all(scores[w - 1] == max(scores) for w in winners)
        assert int(r["rounds"]) == int(r["stock_rounds"]) + int(r["operating_rounds"])
        assert int(r["actions"]) > 0 and float(r["seconds"]) > 0
    for label in ("score", "rounds", "actions", "wins by seat", "end reasons",
                  "seconds per game"):
        assert label in one_job.printed


# Games cut at this many actions for the parallel test: the bonds, the contract bids, the first
# stock round and operating round (tiles, runs, trains) - enough for a seed or a bot's random
# state that a job did not receive the same way to show - at a fraction of two whole games'
# CPU (and of the spawned jobs' own start).
PARALLEL_ACTIONS = 200


def test_parallel_jobs_give_the_same_games_as_one_job(tmp_path: Path) -> None:
    one = _simulate(tmp_path / "one.csv", "--max-actions", str(PARALLEL_ACTIONS))
    two = _simulate(tmp_path / "two.csv", "--max-actions", str(PARALLEL_ACTIONS), "--jobs", "2")
    assert one.status == two.status == 0

    def games(run: Run) -> list[dict[str, str]]:
        # Everything but the time each game took.
        return sorted(({k: v for k, v in r.items() if k != "seconds"} for r in run.rows),
                      key=lambda r: int(r["game"]))

    assert [r["actions"] for r in games(one)] == [str(PARALLEL_ACTIONS)] * 2
    assert games(one)[0] != games(one)[1]  # two games (two seeds), not one twice
    assert games(two) == games(one)


def test_action_limit_stops_a_game_and_is_reported() -> None:
    (result,) = simulate(1, ["random"] * 3, seed=1, max_actions=40)
    assert result.end_reason == "action_limit"
    assert not result.finished
    assert result.actions == 40


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "0"], "games: must be at least 1"),
    (["--jobs", "0"], "jobs: must be at least 1"),
    (["--bots", "greedy,smart,greedy"], "bots: unknown bot 'smart'"),
    (["--bots", "greedy,greedy"], "bots: 3 to 6 bots needed, got 2"),
    (["--bots", "random,random,random,random,random,random,random"],
     "bots: 3 to 6 bots needed, got 7"),
    (["--max-actions", "0"], "max-actions: must be at least 1"),
])
def test_bad_arguments_are_one_line_errors(args: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0
    assert message in err


def test_bad_arguments_through_the_installed_command() -> None:
    done = subprocess.run([sys.executable, "-m", "india1853.interfaces.cli", "simulate",
                           "--games", "-3"], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert done.stderr.strip() == "error: games: must be at least 1, got -3"
    assert "Traceback" not in done.stderr


def test_unwritable_csv_is_a_clear_error(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "missing" / "results.csv"
    assert main(["simulate", "--games", "1", "--bots", "greedy,greedy,greedy",
                 "--out", str(out)]) == 2
    assert "out: no directory" in capsys.readouterr().err


def _result(game: int, scores: tuple[int, ...], reason: str = "bank_broken") -> GameResult:
    return GameResult(game=game, seed=game, edition="second", bots=("greedy",) * len(scores),
                      end_reason=reason, stock_rounds=5, operating_rounds=10 + game,
                      actions=100 * game, seconds=0.5 * game, scores=scores)


def test_summary_counts_wins_by_seat_ties_and_end_reasons() -> None:
    summary = summarise([
        _result(1, (300, 200, 100)),
        _result(2, (100, 400, 400), "share_price"),
        _result(3, (50, 60, 700)),
    ])
    assert summary.games == 3 and summary.finished == 3
    assert summary.wins_by_seat == {1: 1, 2: 1, 3: 2}
    assert summary.end_reasons == {"bank_broken": 2, "share_price": 1}
    assert summary.scores.low == 50 and summary.scores.high == 700
    assert summary.score_gap.low == 200 and summary.score_gap.high == 650
    assert summary.rounds.low == 16 and summary.rounds.high == 18
    assert summary.actions.median == 200
    assert summary.seconds.mean == pytest.approx(1.0)


def test_summary_of_nothing_and_bot_lists_are_checked() -> None:
    with pytest.raises(InputError, match="no game"):
        summarise([])
    assert check_bots([" greedy", "random ", "greedy"]) == ("greedy", "random", "greedy")


def test_a_csv_path_that_cannot_be_written_fails_before_any_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.csv"
    out.mkdir()  # a directory where the file should go
    assert main(["simulate", "--games", "50", "--bots", "greedy,greedy,greedy",
                 "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: out: cannot write") and captured.out == ""
    # A writable path is only probed: nothing is left behind if the run stops.
    fresh = tmp_path / "fresh.csv"
    check_writable(fresh)
    assert not fresh.exists()
