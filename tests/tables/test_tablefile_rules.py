"""Table files under the house rule sets (variants.md, "Table files"): the keys, every refusal, round trips."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from voicejack.engine import apply_move, legal_moves, make_rules, new_game
from voicejack.engine.rules import time_out
from voicejack.tablefile import TableFileError, table_from_dict, table_from_text, table_to_dict

from tests.tables.conftest import minimal_table


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(TableFileError) as caught:
        table_from_dict(data)
    return str(caught.value)


def two_players(**overrides: Any) -> dict[str, Any]:
    data = minimal_table(teams=False)
    data["players"] = [data["players"][0], data["players"][2]]
    data["marbles"] = {"red": ["home"] * 4, "green": ["home"] * 4}
    del data["teams"]
    data.update(overrides)
    return data


def test_rules_default_to_voicejack_and_are_not_written_for_it() -> None:
    state = table_from_dict(minimal_table())
    assert state.rules.rule_set == "voicejack"
    written = table_to_dict(state)
    assert "rules" not in written and "turn_seconds" not in written


@pytest.mark.parametrize("name", ["karooty", "online"])
def test_a_house_rule_set_is_read_and_written(name: str) -> None:
    state = table_from_dict(minimal_table(rules=name))
    assert state.rules.rule_set == name
    assert table_to_dict(state)["rules"] == name


def test_an_unknown_rule_set_is_refused() -> None:
    assert refusal(minimal_table(rules="house")) == "'rules' must be \"voicejack\", \"karooty\" or \"online\", not \"house\""
    assert "not 3" in refusal(minimal_table(rules=3))


@pytest.mark.parametrize("name", ["karooty", "online"])
def test_complex_is_voicejack_only(name: str) -> None:
    assert refusal(minimal_table(rules=name, mode="complex")) == (
        f"'mode' is \"complex\", but the {name} rules have one version: 'mode' must be \"regular\""
    )


def test_karooty_needs_four_players_in_teams_ka1() -> None:
    expected = "'rules' is \"karooty\", which is played by 4 players in teams only ('teams' true, KA1)"
    assert refusal(minimal_table(rules="karooty", teams=False)) == expected
    assert refusal(two_players(rules="karooty")) == expected


def test_online_is_played_at_every_table_on1() -> None:
    assert table_from_dict(two_players(rules="online")).rules.players == 2
    assert not table_from_dict(minimal_table(rules="online", teams=False)).rules.teams


def test_turn_seconds_online_only_and_bounded_on11() -> None:
    assert table_from_dict(minimal_table(rules="online")).rules.timer_seconds == 40
    assert table_from_dict(minimal_table(rules="online", turn_seconds=0)).rules.timer_seconds == 0
    assert table_from_dict(minimal_table(rules="online", turn_seconds=3600)).rules.timer_seconds == 3600
    assert table_to_dict(table_from_dict(minimal_table(rules="online", turn_seconds=15)))["turn_seconds"] == 15
    for other in ("voicejack", "karooty"):
        assert refusal(minimal_table(rules=other, turn_seconds=40)) == (
            f"'turn_seconds' is only for the \"online\" rules (ON11), not for \"{other}\""
        )
    for bad in (-1, 3601, 2.5, "40", True):
        assert refusal(minimal_table(rules="online", turn_seconds=bad)).startswith(
            "'turn_seconds' must be a whole number from 0 to 3600, not"
        )


@pytest.mark.parametrize("name", ["karooty", "online"])
def test_forced_burn_never_occurs_under_a_house_rule_set(name: str) -> None:
    assert refusal(minimal_table(rules=name, forced_burn=True)) == (
        f"'forced_burn' never occurs under the {name} rules: their 10 burns a card at random at once"
    )


def test_online_deal_is_always_zero_on2() -> None:
    assert refusal(minimal_table(rules="online", deal=1)) == (
        "'deal' must be 0 under the online rules: every deal is alike (ON2)"
    )


def test_karooty_default_dealer_is_the_seat_before_turn_in_ka2_order() -> None:
    # KA2: turns go red, yellow, green, blue; the seat before red is blue, before yellow is red.
    assert table_from_dict(minimal_table(rules="karooty")).dealer == "blue"
    assert table_from_dict(minimal_table(rules="karooty", turn="yellow")).dealer == "red"
    assert table_from_dict(minimal_table()).dealer == "yellow"


def test_time_out_is_a_history_entry_on11() -> None:
    state, _ = new_game(make_rules(2, False, rule_set="online"), seed=4)
    colour = state.turn
    time_out(state)
    loaded = table_from_text(json.dumps(table_to_dict(state)))
    assert table_to_dict(loaded)["history"] == [{"colour": colour, "phrase": "time out"}]
    assert table_to_dict(loaded)["last_card"]["phrase"] == "time out"


@pytest.mark.parametrize(("name", "players", "teams"), [("karooty", 4, True), ("online", 2, False),
                                                          ("online", 4, True), ("online", 4, False)])
def test_save_and_load_resume_exactly(name: str, players: int, teams: bool) -> None:
    """The same moves, the same future deals and the same random burns after a save (KA11, ON9, ON11)."""
    for seed in range(6):
        state, _ = new_game(make_rules(players, teams, rule_set=name), seed=seed)
        chooser = random.Random(seed)
        for _ in range(40 + 13 * seed):
            if state.winner is not None:
                break
            apply_move(state, chooser.choice(legal_moves(state)))
        resumed = table_from_text(json.dumps(table_to_dict(state)))
        original_chooser, resumed_chooser = random.Random(seed + 100), random.Random(seed + 100)
        steps = 0
        while state.winner is None and steps < 400:
            moves, again = legal_moves(state), legal_moves(resumed)
            assert moves == again
            if steps % 9 == 4:
                assert time_out(state) == time_out(resumed)
            else:
                move = original_chooser.choice(moves)
                assert apply_move(state, move) == apply_move(resumed, resumed_chooser.choice(again))
            if steps % 10 == 0:
                assert table_to_dict(state) == table_to_dict(resumed)
            steps += 1
        assert table_to_dict(state) == table_to_dict(resumed)


# --------------------------------------------------------------------------
# The position tools take the rule set from the file (and `new` from its options)


@pytest.mark.parametrize(
    ("options", "name", "players", "timer"),
    [(["--rules", "karooty"], "karooty", 4, 0), (["--rules", "online", "--players", "2"], "online", 2, 40),
     (["--rules", "online", "--turn-seconds", "0"], "online", 4, 0)],
)
def test_new_writes_the_rule_set(tmp_path, options: list[str], name: str, players: int, timer: int) -> None:
    from voicejack.app.main import main
    from voicejack.tablefile import load_table

    out = tmp_path / "t.json"
    assert main(["new", "--seed", "2", "--out", str(out), *options]) == 0
    state = load_table(out)
    assert (state.rules.rule_set, state.rules.players, state.rules.timer_seconds) == (name, players, timer)
    assert state.turn == state.rules.next_seat(state.dealer)  # KA2 order under karooty


@pytest.mark.parametrize(
    ("options", "message"),
    [(["--rules", "karooty", "--players", "2"], "the karooty rules are played by 4 players in teams only (KA1)"),
     (["--rules", "online", "--complex"], "--complex is a version of VoiceJack's own rules; the online rules have one version"),
     (["--turn-seconds", "30"], "--turn-seconds is for the online rules only; the voicejack rules have no turn timer"),
     (["--rules", "online", "--turn-seconds", "4000"], "the turn timer must be from 0 to 3600 seconds")],
)
def test_new_refuses_a_table_the_rule_set_does_not_allow(tmp_path, capsys, options: list[str], message: str) -> None:
    from voicejack.app.main import main

    with pytest.raises(SystemExit) as caught:
        main(["new", "--out", str(tmp_path / "t.json"), *options])
    assert caught.value.code == 2
    assert capsys.readouterr().err == f"voicejack new: {message}\n"


def test_moves_and_apply_read_the_rule_set_from_the_file(write_table, capsys) -> None:
    """KA10 through the tools: the karooty 5 pushes an opponent, which `moves` lists and `apply` plays."""
    from voicejack.app.main import main

    data = minimal_table(rules="karooty")
    data["players"][0]["hand"] = ["5"]
    data["marbles"]["red"] = [10, "home", "home", "home"]
    data["marbles"]["blue"] = [30, "home", "home", "home"]
    path = write_table(data)
    assert main(["moves", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["play five blue one", "play five red one"]
    assert main(["apply", str(path), "play five blue one"]) == 0
    capsys.readouterr()
    assert main(["moves", str(path)]) == 0
    after = json.loads(path.read_text())
    assert after["marbles"]["blue"][0] == 35 and after["rules"] == "karooty"
    assert after["turn"] == "yellow"  # KA2: after red comes yellow
