"""Hostile table files: whatever a file holds, loading ends in a state or in one TableFileError line (table-format.md).

The fuzz tests feed the loader generated JSON values, real saves (from
`voicejack new` and random play) with one value swapped for something
else, and truncated or byte-mutated save files. Each is sized to run in
a second or two.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voicejack.app.main import main
from voicejack.engine import apply_move, check_state, legal_moves, make_rules, new_game
from voicejack.tablefile import MAX_FILE_BYTES, TableFileError, load_table, table_from_dict, table_from_text, table_to_dict


def refusal(load: Any) -> str:
    """The loader's one-line refusal of what ``load`` reads."""
    with pytest.raises(TableFileError) as caught:
        load()
    message = str(caught.value)
    assert message and "\n" not in message and len(message) < 300
    return message


def loads_or_refuses(load: Any) -> None:
    """Either a valid, usable state or one short TableFileError line; nothing else gets out."""
    try:
        state = load()
    except TableFileError as error:
        message = str(error)
        assert message and "\n" not in message and len(message) < 300, message
        return
    check_state(state)
    legal_moves(state)
    assert table_to_dict(table_from_dict(json.loads(json.dumps(table_to_dict(state))))) == table_to_dict(state)


# ---------------------------------------------------------------- the cases the issue names


def test_a_file_nested_thousands_of_levels_deep(write_table) -> None:
    path = write_table("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in refusal(lambda: load_table(path))
    deep_but_parsable = {"format": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}
    assert "'format'" in refusal(lambda: table_from_dict({**deep_but_parsable, "mode": "regular", "players": [],
                                                          "marbles": {}, "turn": "red"}))


def test_a_number_with_thousands_of_digits(table_data) -> None:
    text = json.dumps(table_data()).replace('"seed": 7', '"seed": ' + "9" * 5000)
    assert "digits" in refusal(lambda: table_from_text(text))
    assert "off the track" in refusal(lambda: table_from_dict(table_data(marbles={
        "red": [10**5000, "home", "home", "home"], **{c: ["home"] * 4 for c in ("blue", "green", "yellow")}})))


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(table_data, constant: str) -> None:
    text = json.dumps(table_data()).replace('"seed": 7', f'"seed": {constant}')
    assert f"{constant} is not a JSON value" in refusal(lambda: table_from_text(text))


def test_a_huge_file(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    assert "larger than" in refusal(lambda: load_table(path))


def test_bytes_that_are_not_utf8(write_table) -> None:
    assert "not UTF-8" in refusal(lambda: table_from_text(b'{"format": "\xff"}'))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"winner": ["red", "green"]}, "'winner'"),                 # unhashable where a name is looked up
        ({"winner": {"red": 1}}, "'winner'"),
        ({"turn": {"red": 1}}, "'turn'"),
        ({"mode": ["regular"]}, "'mode'"),
        ({"players": [{"colour": {"red": 1}, "hand": []}] * 4}, "'colour'"),
        ({"players": [{"colour": ["red"], "hand": ["K"]}] * 2}, "'colour'"),
        ({"last_card": {"colour": "red", "card": {"K": 1}, "phrase": "play king out"}}, "'last_card' card"),
        ({"last_card": {"colour": ["red"], "card": "K", "phrase": "play king out"}}, "'last_card' colour"),
        ({"last_card": {"colour": "red", "card": "K", "phrase": "play king"}}, "'last_card' phrase"),
        ({"history": [{"colour": "red", "phrase": ["play"]}]}, "'history' entry 1"),
        ({"history": [{"colour": "red", "phrase": "play nine purple one"}]}, "'history' entry 1"),
        ({"history": [{"colour": {"red": 1}, "phrase": "burn hand"}]}, "'history' entry 1"),
        ({"marbles": {"red": ["home"] * 4, "blue": ["home"] * 4, "green": ["home"] * 4, "yellow": [{}, 1, 2, 3]}},
         "'marbles' yellow 1"),
        ({"rng": {"state": 1}}, "'rng'"),
        ({"rng": "mt19937:" + "A" * 400}, "'rng'"),
        ({"deal": 1e300}, "'deal'"),
        ({"seed": "7"}, "'seed'"),
    ],
)
def test_wrong_types_anywhere(table_data, change: dict[str, Any], words: str) -> None:
    assert words in refusal(lambda: table_from_dict(table_data(**change)))


def test_a_card_that_is_an_object(table_data) -> None:
    data = table_data()
    data["players"][1]["hand"] = [{"rank": "K"}]
    assert "'players' entry 2 'hand'" in refusal(lambda: table_from_dict(data))


def test_a_key_with_a_newline_is_shown_on_one_line(table_data) -> None:
    assert "unknown key" in refusal(lambda: table_from_dict(table_data(**{"bad\nkey": 1})))


def test_a_name_that_is_not_unicode_text(table_data) -> None:
    data = table_data()
    data["players"][1]["name"] = "\ud800"
    assert "'name'" in refusal(lambda: table_from_dict(data))


@pytest.mark.parametrize("command", ["moves", "apply", "board", "describe"])
@pytest.mark.parametrize("content", ["[" * 50_000, '{"seed": ' + "1" * 5000 + "}", '{"format": NaN}'])
def test_position_tools_exit_2_with_one_line(tmp_path: Path, command: str, content: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(content, encoding="utf-8")
    args = [command, str(path)] + (["play king out"] if command == "apply" else [])
    result = subprocess.run([sys.executable, "-m", "voicejack", *args], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


# ---------------------------------------------------------------- fuzzing


def _real_saves() -> list[str]:
    """Table files as the game writes them: fresh from `voicejack new`, and after random play."""
    texts = []
    for number, (players, teams, mode) in enumerate([(4, True, "regular"), (2, False, "complex"), (4, False, "complex")]):
        state, _ = new_game(make_rules(players, teams, mode), seed=number)
        texts.append(json.dumps(table_to_dict(state), indent=1))
        chooser = random.Random(number)
        for _ in range(120 + 200 * number):
            if state.winner is not None:
                break
            apply_move(state, chooser.choice(legal_moves(state)))
        texts.append(json.dumps(table_to_dict(state), indent=1))
    return texts


SAVES = _real_saves()
ATOMS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=6),
    st.sampled_from(["red", "blue", "green", "yellow", "home", "safe 1", "safe 4", "K", "10", "A", "regular",
                     "complex", "red+green", "burn hand", "play king out", "play seven red one five red two two",
                     0, 57, 75, 76, -1, 2, 4, "mt19937:", "voicejack-table/1"]),
)
JSON_VALUES = st.recursive(
    ATOMS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=15,
)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


@FUZZ
@given(value=JSON_VALUES)
def test_fuzz_any_json_value(value: Any) -> None:
    loads_or_refuses(lambda: table_from_dict(value))
    loads_or_refuses(lambda: table_from_text(json.dumps(value)))


def _mutate(data: st.DataObject, value: Any) -> Any:
    """``value`` with one thing somewhere inside replaced, removed or added."""
    if isinstance(value, (dict, list)) and value and data.draw(st.booleans()):
        keys = sorted(value) if isinstance(value, dict) else range(len(value))
        key = data.draw(st.sampled_from(list(keys)))
        what = data.draw(st.sampled_from(["descend", "replace", "remove"]))
        if what == "descend":
            value[key] = _mutate(data, value[key])
        elif what == "replace":
            value[key] = data.draw(JSON_VALUES)
        else:
            del value[key]
        return value
    if isinstance(value, dict):
        value[data.draw(st.text(max_size=8))] = data.draw(JSON_VALUES)
        return value
    if isinstance(value, list):
        value.insert(data.draw(st.integers(0, len(value))), data.draw(JSON_VALUES))
        return value
    return data.draw(JSON_VALUES)


@FUZZ
@given(data=st.data(), save=st.sampled_from(range(len(SAVES))))
def test_fuzz_real_saves_with_one_value_changed(data: st.DataObject, save: int) -> None:
    table = _mutate(data, json.loads(SAVES[save]))
    loads_or_refuses(lambda: table_from_dict(table))


@FUZZ
@given(
    save=st.sampled_from(range(len(SAVES))), cut=st.floats(0, 1),
    flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=4),
)
def test_fuzz_truncated_and_byte_mutated_saves(save: int, cut: float, flips: list[tuple[float, int]]) -> None:
    raw = bytearray(SAVES[save].encode("utf-8"))
    for where, byte in flips:
        raw[int(where * (len(raw) - 1))] = byte
    loads_or_refuses(lambda: table_from_text(bytes(raw)))
    loads_or_refuses(lambda: table_from_text(bytes(raw[: int(cut * len(raw))])))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(data=st.data(), save=st.sampled_from(range(len(SAVES))))
def test_fuzz_the_position_tools_never_show_a_traceback(tmp_path_factory, data: st.DataObject, save: int) -> None:
    """What the loader accepts the tools can read out; what it refuses they refuse with status 2."""
    path = tmp_path_factory.mktemp("fuzz") / "table.json"
    path.write_text(json.dumps(_mutate(data, json.loads(SAVES[save]))), encoding="utf-8")
    for command in (["moves"], ["board"], ["describe"]):
        assert main([*command, str(path)]) in (0, 2)
