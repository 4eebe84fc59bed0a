"""`voicejack hear TABLE.json "TEXT"`: one line saying what the game would do."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lang_positions import POSITIONS

from voicejack.app.hear import hear_main
from voicejack.tablefile import save_table


@pytest.fixture
def tables(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    for name in ("mid", "own_capture", "two", "burn_one"):
        path = tmp_path / f"{name}.json"
        save_table(POSITIONS[name], path)
        paths[name] = path
    return paths


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = hear_main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_move(capsys: pytest.CaptureFixture[str], tables: dict[str, Path]) -> None:
    assert run(capsys, str(tables["mid"]), "play 9 red 1") == (0, "move: play nine red one\n", "")


def test_a_confirmation(capsys: pytest.CaptureFixture[str], tables: dict[str, Path]) -> None:
    assert run(capsys, str(tables["own_capture"]), "three red one") == (0, "confirm: play three red one\n", "")


def test_a_question_with_numbered_choices(capsys: pytest.CaptureFixture[str], tables: dict[str, Path]) -> None:
    status, out, _ = run(capsys, str(tables["mid"]), "jack", "red two")
    assert status == 0
    assert out.splitlines() == [
        "ask: Which of your marbles should the jack swap?", "  1. red 1", "  2. red 2",
        "ask: Swap red 2 with which marble?", "  1. blue 1", "  2. your partner's green 1", "  3. yellow 1",
    ]


def test_several_texts_are_one_conversation(capsys: pytest.CaptureFixture[str], tables: dict[str, Path]) -> None:
    status, out, _ = run(capsys, str(tables["mid"]), "seven", "red one", "board", "five")
    assert status == 0
    lines = [line for line in out.splitlines() if not line.startswith("  ")]
    assert lines == ["ask: Which marble moves first?", "ask: How many steps for red 1?", "command: board",
                     "move: play seven red one five red two two"]


def test_a_command_and_not_understood(capsys: pytest.CaptureFixture[str], tables: dict[str, Path]) -> None:
    assert run(capsys, str(tables["mid"]), "where is green one")[1] == "command: where green 1\n"
    assert run(capsys, str(tables["mid"]), "play queen red one")[1] == "not understood: You have no queen.\n"


def test_another_seat_is_refused_a_move_but_not_a_command(capsys: pytest.CaptureFixture[str], tables: dict[str, Path]) -> None:
    status, out, _ = run(capsys, str(tables["mid"]), "--seat", "blue", "play nine red one", "board")
    assert status == 0
    assert out.splitlines() == ["not understood: It is red's turn, not yours. You can still ask for the board or your cards.",
                                "command: board"]


def test_confirm_always(capsys: pytest.CaptureFixture[str], tables: dict[str, Path]) -> None:
    assert run(capsys, str(tables["mid"]), "--confirm", "always", "play nine red one")[1] == "confirm: play nine red one\n"


def test_spoken_text_has_no_typing_shortcuts(capsys: pytest.CaptureFixture[str], tables: dict[str, Path]) -> None:
    assert run(capsys, str(tables["burn_one"]), "burn q")[1] == "move: burn queen\n"
    assert run(capsys, str(tables["burn_one"]), "--spoken", "burn q")[1].startswith("not understood:")


@pytest.mark.parametrize("problem", ["missing", "not_json", "bad_key", "folder"])
def test_a_bad_table_file_is_one_message_and_status_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, problem: str) -> None:
    path = tmp_path / "table.json"
    if problem == "not_json":
        path.write_text("{ nope", encoding="utf-8")
    elif problem == "bad_key":
        path.write_text(json.dumps({"format": "voicejack-table/1", "colour": "red"}), encoding="utf-8")
    elif problem == "folder":
        path.mkdir()
    status, out, err = run(capsys, str(path), "board")
    assert status == 2 and out == ""
    assert err.startswith("voicejack hear: ") and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], tables: dict[str, Path]) -> None:
    assert run(capsys, str(tables["mid"]))[0] == 2                                   # nothing to hear
    assert run(capsys, str(tables["mid"]), "--wav", "x.wav", "nine")[0] == 2          # both
    assert run(capsys, str(tables["two"]), "--seat", "blue", "board")[0] == 2         # no blue in a 2-player game
    with pytest.raises(SystemExit) as raised:
        hear_main([str(tables["mid"]), "--seat", "purple", "board"])
    assert raised.value.code == 2
    capsys.readouterr()


def test_a_missing_wav_file_exits_2(capsys: pytest.CaptureFixture[str], tables: dict[str, Path], tmp_path: Path) -> None:
    status, out, err = run(capsys, str(tables["mid"]), "--wav", str(tmp_path / "none.wav"))
    assert status == 2 and out == "" and "none.wav" in err


def test_through_the_voicejack_command(tables: dict[str, Path]) -> None:
    done = subprocess.run([sys.executable, "-m", "voicejack", "hear", str(tables["mid"]), "ace", "eleven", "second"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "move: play ace red two eleven"
