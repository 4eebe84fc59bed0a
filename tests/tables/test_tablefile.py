"""Table files (table-format.md): validation with one clear message, round trips, atomic saves."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from voicejack.engine import apply_move, legal_moves, legal_phrases, make_rules, new_game
from voicejack.engine.board import SAFE_OFFSET
from voicejack.tablefile import TableFileError, load_table, save_table, table_from_dict, table_to_dict


def test_spec_example_offers_only_the_king(table_data) -> None:
    assert legal_phrases(table_from_dict(table_data())) == ["play king out"]


def test_defaults_fill_names_kinds_dealer_and_pile(table_data) -> None:
    state = table_from_dict(table_data())
    assert [seat.name for seat in state.seats] == ["You", "Blue", "Green", "Yellow"]
    assert [seat.kind for seat in state.seats] == ["human", "bot", "bot", "bot"]
    assert state.dealer == "yellow"  # the seat before 'turn'
    assert state.deal_index == 0 and state.discard == [] and not state.forced_burn
    in_hands = sum(len(hand) for hand in state.hands.values())
    assert len(state.pile) == 52 - in_hands
    assert sorted(state.pile + [c for h in state.hands.values() for c in h]) == sorted(
        [rank for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for _ in range(4)]
    )


def test_default_pile_is_shuffled_by_seed(table_data) -> None:
    assert table_from_dict(table_data(seed=1)).pile == table_from_dict(table_data(seed=1)).pile
    assert table_from_dict(table_data(seed=1)).pile != table_from_dict(table_data(seed=2)).pile


def test_positions_are_read(table_data) -> None:
    marbles = {"red": [0, "safe 1", "safe 4", "home"], "blue": [75, "home", "home", "home"],
               "green": ["home"] * 4, "yellow": ["home"] * 4}
    state = table_from_dict(table_data(marbles=marbles))
    assert state.marbles[:4] == [0, SAFE_OFFSET + 1, SAFE_OFFSET + 4, -1]
    assert state.marble_at(75) == 4 and state.marble_at(0) == 0


def mutate(data: dict, path: list, value) -> dict:
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


BAD_TABLES = [
    # (what is wrong, change, words the message must contain)
    ("unknown key", ["colour_scheme"], "dark", "unknown key 'colour_scheme'"),
    ("missing key", ["turn"], KeyError, "missing key 'turn'"),
    ("missing teams with 4 players", ["teams"], KeyError, "'teams'"),
    ("wrong format", ["format"], "voicejack-table/2", "'format'"),
    ("bad mode", ["mode"], "hard", "'mode'"),
    ("a card that is not a rank", ["players", 1, "hand"], ["2", "11"], '"11" is not a card'),
    ("a card that is a number", ["players", 1, "hand"], [2], "2 is not a card"),
    ("turn with an empty hand", ["players", 0, "hand"], [], "'turn' is red"),
    ("bad position", ["marbles", "red", 0], 76, "off the track"),
    ("bad safe place", ["marbles", "red", 0], "safe 5", "not a position"),
    ("three marbles", ["marbles", "red"], ["home"] * 3, "exactly 4 positions"),
    ("unknown colour in marbles", ["marbles", "purple"], ["home"] * 4, "purple"),
    ("bad dealer", ["dealer"], "purple", "'dealer'"),
    ("bad deal index", ["deal"], 3, "'deal'"),
    ("bad winner", ["winner"], "red", "'winner'"),
    ("bad rng", ["rng"], "mt19937:not-base64!", "'rng'"),
    ("player key typo", ["players", 2, "hnad"], [], "unknown key 'hnad'"),
    ("empty name", ["players", 2, "name"], "  ", "'name'"),
    ("bad kind", ["players", 2, "kind"], "robot", "'kind'"),
]


@pytest.mark.parametrize("what,path,value,words", BAD_TABLES, ids=[case[0] for case in BAD_TABLES])
def test_bad_tables_fail_with_one_clear_message(table_data, what, path, value, words) -> None:
    data = mutate(table_data(), path, value)
    with pytest.raises(TableFileError) as caught:
        table_from_dict(data)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_three_players_are_refused(table_data) -> None:
    data = table_data()
    del data["players"][3]
    del data["marbles"]["yellow"]
    with pytest.raises(TableFileError, match="3 players"):
        table_from_dict(data)


def test_wrong_seat_colours_are_refused(table_data) -> None:
    data = table_data()
    data["players"][1]["colour"], data["players"][2]["colour"] = "green", "blue"
    with pytest.raises(TableFileError, match="seat colours must be red, blue, green, yellow"):
        table_from_dict(data)


def test_two_marbles_on_one_cell_or_safe_place(table_data) -> None:
    data = table_data()
    data["marbles"]["red"][0] = 12
    data["marbles"]["blue"][0] = 12
    with pytest.raises(TableFileError, match="both on cell 12"):
        table_from_dict(data)
    data = table_data()
    data["marbles"]["red"][:2] = ["safe 2", "safe 2"]
    with pytest.raises(TableFileError, match="both on safe 2"):
        table_from_dict(data)
    data = table_data()  # the same safe place number of two colours is two different places
    data["marbles"]["red"][0] = data["marbles"]["blue"][0] = "safe 2"
    table_from_dict(data)


def test_five_of_a_rank_are_refused(table_data) -> None:
    data = table_data()
    data["players"][1]["hand"] = ["K", "K", "K", "K"]  # red holds one more
    with pytest.raises(TableFileError, match='more than four cards of rank "K"'):
        table_from_dict(data)


def test_given_pile_must_complete_the_deck(table_data) -> None:
    data = table_data(pile=["A", "A"])
    with pytest.raises(TableFileError, match="not the 52-card deck"):
        table_from_dict(data)


ALL_IN = ["safe 1", "safe 2", "safe 3", "safe 4"]


def test_no_cards_anywhere_needs_a_win(table_data) -> None:
    """A won match may end with every hand empty; the win must show in the marbles (R37)."""
    data = table_data()
    for player in data["players"]:
        player["hand"] = []
    with pytest.raises(TableFileError, match="no 'winner'"):
        table_from_dict(data)
    data["marbles"]["red"] = data["marbles"]["green"] = ALL_IN
    data["winner"] = "red+green"
    assert legal_moves(table_from_dict(data)) == []


def test_forced_burn_on_player_without_cards(table_data) -> None:
    data = table_data(forced_burn=True)
    for player in data["players"]:
        player["hand"] = []
    data["marbles"]["blue"] = data["marbles"]["yellow"] = ALL_IN
    data["winner"] = "blue+yellow"
    with pytest.raises(TableFileError, match="'forced_burn' is set on red, who holds no cards"):
        table_from_dict(data)


def test_teams_with_two_players_are_refused() -> None:
    data = {
        "format": "voicejack-table/1", "mode": "regular", "teams": True,
        "players": [{"colour": "red", "hand": ["K"]}, {"colour": "green", "hand": ["2"]}],
        "marbles": {"red": ["home"] * 4, "green": ["home"] * 4}, "turn": "red",
    }
    with pytest.raises(TableFileError, match="2 players never have partners"):
        table_from_dict(data)
    data["teams"] = False
    assert table_from_dict(data).rules.players == 2


def test_load_names_the_file_and_reports_bad_json(write_table) -> None:
    path = write_table("{\n  \"format\": ")
    with pytest.raises(TableFileError, match=r"table\.json: not valid JSON: .* line 2"):
        load_table(path)
    with pytest.raises(TableFileError, match="no such file"):
        load_table(path.parent / "missing.json")
    with pytest.raises(TableFileError, match="one JSON object"):
        load_table(write_table("[1, 2]"))


def play_randomly(state, moves: int, seed: int) -> list[str]:
    import random

    chooser = random.Random(seed)
    phrases = []
    for _ in range(moves):
        if state.winner is not None:
            break
        move = chooser.choice(sorted(legal_moves(state), key=lambda m: m.phrase))
        phrases.append(move.phrase)
        apply_move(state, move)
    return phrases


@pytest.mark.parametrize("players,teams,mode", [(4, True, "regular"), (4, False, "complex"), (2, False, "regular")])
def test_save_and_load_continue_exactly(tmp_path: Path, players, teams, mode) -> None:
    """Saving keeps the generator state: a resumed match deals exactly what the original would have."""
    state, _ = new_game(make_rules(players, teams, mode), seed=11)
    play_randomly(state, 150, seed=1)
    path = tmp_path / "saved.json"
    save_table(state, path)
    resumed = load_table(path)
    assert table_to_dict(resumed) == table_to_dict(state)
    assert legal_phrases(resumed) == legal_phrases(state)
    original_future = play_randomly(state, 400, seed=2)
    resumed_future = play_randomly(resumed, 400, seed=2)
    assert original_future == resumed_future
    assert table_to_dict(resumed) == table_to_dict(state)


def test_save_is_atomic(tmp_path: Path, monkeypatch) -> None:
    state, _ = new_game(make_rules(), seed=3)
    path = tmp_path / "match.json"
    save_table(state, path)
    before = path.read_text(encoding="utf-8")
    apply_move(state, legal_moves(state)[0])

    def crash(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        save_table(state, path)
    assert path.read_text(encoding="utf-8") == before
    assert [p.name for p in tmp_path.iterdir()] == ["match.json"]  # no temporary file left behind


def test_saved_file_is_valid_utf8_json_with_only_known_keys(tmp_path: Path) -> None:
    state, _ = new_game(make_rules(4, False, "complex"), seed=5)
    path = tmp_path / "t.json"
    save_table(state, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "voicejack-table/1" and data["teams"] is False and data["mode"] == "complex"
    assert set(data) <= {"format", "mode", "teams", "players", "marbles", "turn", "forced_burn", "dealer",
                         "deal", "pile", "discard", "last_card", "seed", "rng", "winner", "history"}
