"""A won match is a valid table (table-format.md): recognised from its marbles, offering nothing (R37, R38)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from voicejack.app.main import main
from voicejack.engine import apply_move, legal_moves, legal_phrases, make_rules, new_game
from voicejack.tablefile import TableFileError, load_table, save_table, table_from_dict, table_to_dict

ALL_IN = ["safe 1", "safe 2", "safe 3", "safe 4"]


def test_free_for_all_player_with_all_four_in_has_won_without_a_winner_key(table_data) -> None:
    """R37: every player for themselves, the first with all four marbles in wins; R38: nothing is offered."""
    data = table_data(teams=False)
    data["marbles"]["blue"] = ALL_IN
    data["marbles"]["red"] = [5, "home", "home", "home"]
    state = table_from_dict(data)
    assert state.winner == ("blue",)
    assert legal_phrases(state) == []


def test_two_player_win_is_recognised_from_the_marbles(table_data) -> None:
    data = {
        "format": "voicejack-table/1", "mode": "complex",
        "players": [{"colour": "red", "hand": ["9"]}, {"colour": "green", "hand": []}],
        "marbles": {"red": ["home"] * 4, "green": ALL_IN}, "turn": "red",
    }
    state = table_from_dict(data)
    assert state.winner == ("green",) and legal_moves(state) == []


def test_team_play_needs_both_partners_in(table_data) -> None:
    """R36-R37: red alone all in plays on for green; red and green all in have won."""
    data = table_data()
    data["marbles"]["red"] = ALL_IN
    data["marbles"]["green"] = [40, "home", "home", "home"]
    state = table_from_dict(data)
    assert state.winner is None and legal_phrases(state)
    data["marbles"]["green"] = ALL_IN
    state = table_from_dict(data)
    assert state.winner == ("red", "green") and legal_phrases(state) == []


def test_moves_command_on_a_won_table_offers_nothing(write_table, table_data, capsys) -> None:
    data = table_data(teams=False)
    data["marbles"]["yellow"] = ALL_IN
    assert main(["moves", str(write_table(data))]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "yellow won" in err


@pytest.mark.parametrize(
    "winner,marbles,words",
    [
        ("red+green", {}, "no side has all its marbles in"),
        ("blue+yellow", {"red": ALL_IN, "green": ALL_IN}, r"the marbles show red\+green won"),
    ],
)
def test_a_winner_the_marbles_contradict_is_refused(table_data, winner, marbles, words) -> None:
    data = table_data(winner=winner)
    data["marbles"].update(marbles)
    with pytest.raises(TableFileError, match=words):
        table_from_dict(data)


def test_two_winners_on_the_board_are_refused(table_data) -> None:
    data = table_data(teams=False)
    data["marbles"]["red"] = data["marbles"]["blue"] = ALL_IN
    with pytest.raises(TableFileError, match=r"more than one winner \(red and blue\)"):
        table_from_dict(data)


def test_a_won_table_is_exempt_from_the_hand_and_turn_checks(table_data) -> None:
    """The winning move may have been the mover's last card while others still hold cards."""
    data = table_data(teams=False)
    data["marbles"]["red"] = ALL_IN
    data["players"][0]["hand"] = []
    assert table_from_dict(data).winner == ("red",)


KINDS = [(2, False, "regular"), (2, False, "complex"), (4, True, "regular"), (4, True, "complex"),
         (4, False, "regular"), (4, False, "complex")]


@pytest.mark.parametrize("players,teams,mode", KINDS)
def test_the_last_autosave_of_a_won_match_loads(tmp_path: Path, players: int, teams: bool, mode: str) -> None:
    """Random games played to the end, saved after the winning move, load again exactly (R37, R38)."""
    path = tmp_path / "auto.json"
    for game in range(20):
        state, _ = new_game(make_rules(players, teams, mode), seed=game)
        chooser = random.Random(game)
        while state.winner is None:
            apply_move(state, chooser.choice(legal_moves(state)))
        save_table(state, path)
        loaded = load_table(path)
        assert table_to_dict(loaded) == table_to_dict(state)
        assert loaded.winner == state.winner and legal_moves(loaded) == []


def test_team_win_with_the_movers_last_card_saves_and_loads(tmp_path: Path, table_data) -> None:
    """The issue's case: red, all in, moves green's last marble in with red's last card (R36, R37)."""
    data = table_data()
    data["marbles"]["red"] = ALL_IN
    data["marbles"]["green"] = ["safe 2", "safe 3", "safe 4", 36]  # progress 74: a 2 reaches safe 1
    data["players"][0]["hand"] = ["2"]
    data["players"][1]["hand"] = ["3", "5", "8"]
    state = table_from_dict(data)
    assert legal_phrases(state) == ["play two green four"]
    apply_move(state, legal_moves(state)[0])
    assert state.winner == ("red", "green") and state.turn == "red" and state.hands["red"] == []
    path = tmp_path / "auto.json"
    save_table(state, path)
    loaded = load_table(path)
    assert table_to_dict(loaded) == table_to_dict(state) and legal_moves(loaded) == []
