"""The house rule sets at the table (variants.md): the start tells them, "what are the rules" at any time,
and `voicejack play --rules` starts such a match."""

from __future__ import annotations

from pathlib import Path

from voicejack.engine import make_rules, new_game
from voicejack.engine.state import Seat
from voicejack.narration import Narrator

KAROOTY_START = (
    "This match is played by Karooty's rules. Turns go against the marbles: red, yellow, green, blue. "
    "Only your own marbles block you: there are no walls, but an opponent on your goal entrance keeps you out "
    "of your safe zone. The five moves any marble, the king ploughs 13 cells sending home all it passes, "
    "and the ten makes the next player lose a random card and the turn."
)


def karooty_state(seed: int = 3):
    seats = (Seat("red", "You", "human"), Seat("blue", "Blue", "bot"), Seat("green", "Green", "bot"),
             Seat("yellow", "Yellow", "bot"))
    return new_game(make_rules(4, True, rule_set="karooty"), seed=seed, seats=seats)[0]


def test_the_match_start_announces_the_rule_set(tmp_path: Path, kit) -> None:
    state = karooty_state()
    _, _, transcript = kit.run_match(state, ["quit", "yes"], tmp_path / "s.json")
    assert KAROOTY_START in transcript.lines
    order = next(line for line in transcript.lines if line.startswith("Turn order"))
    assert order == "Turn order: you, Yellow, Green, Blue."  # KA2


def test_what_are_the_rules_tells_them_at_any_time(tmp_path: Path, kit) -> None:
    state, _ = new_game(make_rules(2, False, rule_set="online", turn_seconds=0), seed=12,
                        seats=(Seat("red", "You", "human"), Seat("green", "Green", "bot")))
    _, _, transcript = kit.run_match(state, ["what are the rules", "help", "quit", "yes"], tmp_path / "s.json",
                                     announce=False)
    expected = Narrator().rules_lines(state)
    assert expected[0].startswith("This match is played by Jackaroo Online's rules.")
    assert len(expected) == 1  # the timer is off, so nothing is said about it
    index = transcript.lines.index(expected[0])
    assert any("what are the rules" in line for line in transcript.lines[index:])  # help names it


def test_the_turn_timer_is_announced_with_the_rules() -> None:
    state, _ = new_game(make_rules(4, False, rule_set="online"), seed=1)
    assert Narrator().rules_lines(state)[1] == (
        "Each turn has 40 seconds; when the time runs out, a card of your hand is burned at random.")


def test_the_random_burn_is_told() -> None:
    """KA11's wording: "Blue burned a queen at random and loses the turn"."""
    from voicejack.engine import find_move, play
    from voicejack.tablefile import table_from_dict

    state = table_from_dict({
        "format": "voicejack-table/1", "mode": "regular", "rules": "karooty", "teams": True,
        "players": [{"colour": "red", "hand": ["10"]}, {"colour": "blue", "hand": ["2"]},
                    {"colour": "green", "hand": ["3"]}, {"colour": "yellow", "hand": ["Q"]}],
        "marbles": {"red": [10, "home", "home", "home"], "blue": ["home"] * 4, "green": ["home"] * 4,
                    "yellow": ["home"] * 4},
        "turn": "red",
    })
    after, events = play(state, find_move(state, "play ten burn"))
    lines = Narrator().outcome(state, events, after, listener="blue")
    assert "Red played a ten: Yellow burned a queen at random and loses the turn." in lines


def test_play_takes_the_rule_set(tmp_path: Path, monkeypatch) -> None:
    from voicejack.app import play as play_app

    started = []
    monkeypatch.setattr(play_app, "_run", lambda state, args, **kwargs: started.append(state) or 0)
    assert play_app.play_main(["--rules", "online", "--turn-seconds", "15", "--seed", "2"]) == 0
    assert started[0].rules.rule_set == "online" and started[0].rules.timer_seconds == 15
    assert play_app.play_main(["--rules", "karooty", "--seed", "2"]) == 0
    assert started[1].rules.order == ("red", "yellow", "green", "blue")


def test_the_karooty_king_ploughs_by_name() -> None:
    """KA9: the king's 13 is called the plough at a Karooty table."""
    from voicejack.engine import find_move, play
    from voicejack.tablefile import table_from_dict

    state = table_from_dict({
        "format": "voicejack-table/1", "mode": "regular", "rules": "karooty", "teams": True,
        "players": [{"colour": "red", "hand": ["K"]}, {"colour": "blue", "hand": ["2"]},
                    {"colour": "green", "hand": ["3"]}, {"colour": "yellow", "hand": ["Q"]}],
        "marbles": {"red": [10, "home", "home", "home"], "blue": [15, "home", "home", "home"],
                    "green": ["home"] * 4, "yellow": ["home"] * 4},
        "turn": "red",
    })
    move = find_move(state, "play king red one")
    assert Narrator().describe_option(state, move, "red").startswith("King plough: red 1 walks 13")
    after, events = play(state, move)
    assert Narrator().outcome(state, events, after, "blue")[0].startswith("Red played a king to plough")
