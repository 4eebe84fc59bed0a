"""The position tools as a user runs them: new, moves, apply (exit codes, messages, files)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from voicejack.app.main import main
from voicejack.engine import legal_phrases
from voicejack.tablefile import load_table


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "voicejack", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "options,players,teams,mode",
    [([], 4, True, "regular"), (["--players", "2"], 2, False, "regular"),
     (["--free-for-all", "--complex"], 4, False, "complex")],
)
def test_new_writes_a_table_after_the_first_deal(tmp_path: Path, options, players, teams, mode) -> None:
    out = tmp_path / "t.json"
    assert main(["new", "--seed", "9", "--out", str(out), *options]) == 0
    state = load_table(out)
    assert (state.rules.players, state.rules.teams, state.rules.mode) == (players, teams, mode)
    assert all(len(hand) == 4 for hand in state.hands.values())  # R9: the first deal is 4 each
    assert state.turn == state.rules.next_seat(state.dealer)    # R11: the player after the dealer leads
    assert all(position == -1 for position in state.marbles)


def test_new_is_reproducible_by_seed(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    main(["new", "--seed", "5", "--out", str(first)])
    main(["new", "--seed", "5", "--out", str(second)])
    assert first.read_text() == second.read_text()


def test_moves_prints_sorted_phrases(tmp_path: Path, capsys, write_table, table_data) -> None:
    data = table_data()
    data["players"][0]["hand"] = ["A", "K", "7"]
    data["marbles"]["red"] = [5, "home", "home", "home"]
    path = write_table(data)
    assert main(["moves", str(path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == sorted(printed)
    assert printed == ["play ace out", "play ace red one eleven", "play ace red one one", "play king out", "play seven red one"]


def test_apply_plays_narrates_and_updates_the_file(write_table, table_data) -> None:
    path = write_table(table_data())
    result = run("apply", str(path), "play king out")
    assert result.returncode == 0, result.stderr
    assert "red 1" in result.stdout.lower() and "cell 0" in result.stdout
    state = load_table(path)
    assert state.marbles[0] == 0 and state.turn == "blue"
    assert [(colour, move.phrase) for colour, move in state.history] == [("red", "play king out")]


def test_apply_out_leaves_the_original_untouched(tmp_path: Path, write_table, table_data) -> None:
    path = write_table(table_data())
    original = path.read_text()
    out = tmp_path / "next.json"
    assert main(["apply", str(path), "PLAY  King OUT", "--out", str(out)]) == 0
    assert path.read_text() == original
    assert load_table(out).marbles[0] == 0


@pytest.mark.parametrize("phrase,reason", [
    ("play nine red one", "not a legal move for red now"),
    ("play queen red one", "not a legal move for red now"),  # a card not in hand
    ("dance a jig", "a move starts with 'play' or 'burn'"),
])
def test_apply_refuses_an_illegal_phrase_and_lists_the_legal_ones(write_table, table_data, phrase, reason) -> None:
    path = write_table(table_data())
    original = path.read_text()
    result = run("apply", str(path), phrase)
    assert result.returncode == 1
    assert reason in result.stderr
    assert "Legal moves for red:\n  play king out" in result.stderr
    assert "Traceback" not in result.stderr
    assert path.read_text() == original


@pytest.mark.parametrize("command", [["moves"], ["apply", "--", "play king out"], ["describe"], ["board"]])
def test_bad_file_exits_2_with_one_message(write_table, command) -> None:
    path = write_table('{"format": "voicejack-table/1", "mode": "regular"}')
    args = [command[0], str(path), *command[1:]]
    if command[0] == "apply":
        args = ["apply", str(path), "play king out"]
    result = run(*args)
    assert result.returncode == 2
    assert "missing key 'players'" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_step_through_a_whole_match_with_apply(tmp_path: Path, capsys) -> None:
    """Done means a user can play a whole match one phrase at a time: here always the first legal phrase."""
    path = tmp_path / "match.json"
    main(["new", "--players", "2", "--seed", "21", "--out", str(path)])
    for _ in range(2000):
        state = load_table(path)
        if state.winner is not None:
            break
        assert main(["apply", str(path), legal_phrases(state)[0]]) == 0
    final = load_table(path)
    assert final.winner is not None
    told = capsys.readouterr().out
    assert "wins the match" in told
    assert json.loads(path.read_text())["winner"] in ("red", "green")
