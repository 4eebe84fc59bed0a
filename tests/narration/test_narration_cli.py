"""`voicejack describe` and `voicejack board` on table files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from voicejack.app.main import main

WALL = {
    "format": "voicejack-table/1",
    "mode": "regular",
    "teams": False,
    "players": [
        {"colour": "red", "hand": ["Q", "A"]},
        {"colour": "blue", "name": "Sara", "hand": ["9"]},
        {"colour": "green", "hand": ["9"]},
        {"colour": "yellow", "hand": ["9"]},
    ],
    "marbles": {
        "red": [30, "home", "home", "home"],
        "blue": [31, 32, "home", "home"],
        "green": ["home"] * 4,
        "yellow": ["home"] * 4,
    },
    "turn": "red",
}


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "table.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_describe_prints_each_legal_phrase_with_its_description(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["describe", write(tmp_path, WALL)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "play ace out: Ace: red 2 comes out onto your base at cell 0.",
        "play ace red one one: Ace as 1: red 1 walks from cell 30 to cell 31. It sends home Sara's blue 1. "
        "Then Sara is 1 cell ahead of you.",
    ]


def test_describe_brief(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["describe", write(tmp_path, WALL), "--brief"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "play ace out: Ace out: red 2 to your base at cell 0.",
        "play ace red one one: Ace 1: red 1, from cell 30 to cell 31. Sends home Sara's blue 1. Sara ahead by 1.",
    ]


def test_describe_prints_every_phrase_and_which_option_a_same_ending_split_is_read_as(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # R17: red 1 three then red 2 four, or red 2 four then red 1 three, end the same (issue 11).
    seven = {
        "format": "voicejack-table/1", "mode": "regular", "teams": False,
        "players": [{"colour": "red", "hand": ["7"]}, {"colour": "green", "hand": ["9"]}],
        "marbles": {"red": ["safe 1", 71, "home", "home"], "green": ["home"] * 4}, "turn": "red",
    }
    assert main(["describe", write(tmp_path, seven), "--brief"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "play seven red one three red two four: Seven split: 3 steps for red 1, from safe place 1 to safe place 4. "
        "Then 4 steps for red 2, from cell 71 to cell 75. Red 2 ends 1 step short of your safe zone.",
        "play seven red one two red two five: Seven split: 2 steps for red 1, from safe place 1 to safe place 3. "
        "Then 5 steps for red 2, from cell 71 into safe place 1.",
        "play seven red two four red one three: the same as play seven red one three red two four.",
    ]


def test_board_prints_the_readout_for_the_table_or_one_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, WALL)
    assert main(["board", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "It is Red's turn. Ahead: Red. Red: 1 on the track; Sara: 2 on the track; Green and Yellow: all at home.",
        "Red: 2 cards. Red 1 on cell 30, red 2, 3 and 4 at home.",
        "Sara, blue: 1 card. Blue 1 on cell 31, blue 2 on cell 32, blue 3 and 4 at home.",
        "Green: 1 card. All four at home.",
        "Yellow: 1 card. All four at home.",
        "No card has been played yet.",
        "Regular version, every player for themselves. 47 cards left in the pile.",
    ]
    assert main(["board", path, "--as", "red", "--brief"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["Your turn. Ahead: you. You 1 out; Sara 2 out; Green and Yellow all home.", "You, red: 2 cards. Red 1 on cell 30, red 2, 3 and 4 at home."]


@pytest.mark.parametrize("command", ["describe", "board"])
@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "no such file"), ("{not json", "not valid JSON"), ({**WALL, "colour": 1}, "colour")],
)
def test_a_bad_table_file_is_one_line_on_stderr_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, content: Any, message: str,
) -> None:
    path = str(tmp_path / "missing.json") if content is None else write(tmp_path, content)
    assert main([command, path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert message in captured.err and captured.err.startswith(f"voicejack {command}: ")


def test_board_for_a_colour_not_at_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = {**WALL, "players": [WALL["players"][0], WALL["players"][2]], "marbles": {"red": ["home"] * 4, "green": ["home"] * 4}}
    assert main(["board", write(tmp_path, two), "--as", "blue"]) == 2
    assert capsys.readouterr().err.strip() == "voicejack board: blue is not at this table"


def test_a_bad_argument_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", write(tmp_path, WALL), "--as", "purple"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
