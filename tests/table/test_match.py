"""The match loop end to end with typed input: whole matches, commands, seats, saving and resuming."""

from __future__ import annotations

import itertools
from pathlib import Path

from voicejack.engine import legal_phrases, make_rules, new_game
from voicejack.tablefile import load_table, table_from_dict
from voicejack.table.inputs import InputHub
from voicejack.table.match import Match, MatchConfig
from voicejack.table.settings import Settings



def test_a_complete_match_driven_by_typed_commands(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=5)
    match, outcome, transcript = kit.run_match(state, kit.always_first_option(), tmp_path / "save.json")
    assert outcome.winner is not None and state.winner == outcome.winner
    text = transcript.text
    assert "This match is played in the regular version." in text
    assert "Your turn, red." in text and "Your options." in text
    assert "wins the match" in text
    assert transcript.cues.count("your-turn") >= 10 and transcript.cues[-1] == "win"
    # Every human move was chosen through the read-out options: the history holds the human's plays.
    assert any(colour == "red" and move.phrase.startswith("play") for colour, move in state.history)
    # Autosave after every turn: the save file holds the finished match.
    assert load_table(tmp_path / "save.json").winner == outcome.winner


def test_four_player_match_with_a_human_and_three_bots(tmp_path: Path, kit) -> None:
    state, _ = new_game(make_rules(4, True, "complex"), seed=8)
    _, outcome, transcript = kit.run_match(state, kit.always_first_option(), tmp_path / "s.json")
    assert outcome.winner in (("red", "green"), ("blue", "yellow"))
    assert "played in complex mode" in transcript.text


def test_commands_answer_without_changing_the_match(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)
    remembered: list[Settings] = []
    lines = ["read the board", "my cards", "score", "where is red one", "last card", "help", "repeat",
             "slower", "brief", "quit", "yes"]
    match, outcome, transcript = kit.run_match(state, lines, tmp_path / "s.json", on_settings=remembered.append)
    assert outcome.winner is None
    text = transcript.text
    assert match.readout.lines and match.readout.lines[0] in transcript.lines  # the board's summary line
    assert "Your cards:" in text or "You hold" in text
    assert "Red 1 is at home" in text or "red 1 is at home" in text.lower()
    assert "Say or type a move" in text
    assert "Speech rate 150 words a minute." in text
    assert remembered[-1].brief is True and remembered[0].speech_rate == 150
    # The human never moved: quitting saved the position untouched.
    saved = load_table(tmp_path / "s.json")
    human_moves = [m.phrase for c, m in saved.history if c == "red" and not m.phrase.startswith("burn")]
    assert human_moves == []
    assert "Match saved to" in text


def test_unclear_and_illegal_input_change_nothing_and_say_why(tmp_path: Path, kit) -> None:
    data = {
        "format": "voicejack-table/1", "mode": "regular", "teams": False,
        "players": [{"colour": "red", "kind": "human", "hand": ["Q", "A"]},
                    {"colour": "blue", "hand": ["9"]}, {"colour": "green", "hand": ["9"]},
                    {"colour": "yellow", "hand": ["9"]}],
        "marbles": {"red": [30, "home", "home", "home"], "blue": [31, 32, "home", "home"],
                    "green": ["home"] * 4, "yellow": ["home"] * 4},
        "turn": "red", "seed": 1,
    }
    state = table_from_dict(data)
    lines = ["play queen red one", "play king out", "flibber jabber", "quit", "yes"]
    _, _, transcript = kit.run_match(state, lines, tmp_path / "s.json", announce=False)
    assert transcript.cues.count("turned-back") >= 2
    assert state.history == []
    assert state.marbles[0] == 30 and state.hands["red"] == ["Q", "A"]


def test_a_capture_of_your_own_marble_is_confirmed_first(tmp_path: Path, kit) -> None:
    data = {
        "format": "voicejack-table/1", "mode": "regular", "teams": False,
        "players": [{"colour": "red", "kind": "human", "hand": ["2"]}, {"colour": "green", "hand": ["9"]}],
        "marbles": {"red": [10, 12, "home", "home"], "green": ["home"] * 4},
        "turn": "red", "seed": 1,
    }
    state = table_from_dict(data)
    assert legal_phrases(state) == ["play two red one", "play two red two"]
    lines = ["play two red one", "no", "play two red one", "yes", "quit", "yes"]
    _, _, transcript = kit.run_match(state, lines, tmp_path / "s.json", announce=False)
    assert "yes or no" in transcript.text.lower()
    assert (state.history[0][0], state.history[0][1].phrase) == ("red", "play two red one")
    assert state.marbles[1] == -1  # red 2 went home, as the player confirmed


def test_whole_hand_burn_happens_at_once(tmp_path: Path, kit) -> None:
    data = {
        "format": "voicejack-table/1", "mode": "regular", "teams": False,
        "players": [{"colour": "red", "kind": "human", "hand": ["2", "3"]}, {"colour": "green", "hand": ["9"]}],
        "marbles": {"red": ["home"] * 4, "green": [5, "home", "home", "home"]},
        "turn": "red", "seed": 1,
    }
    state = table_from_dict(data)
    _, _, transcript = kit.run_match(state, ["quit", "yes"], tmp_path / "s.json", announce=False)
    assert (state.history[0][0], state.history[0][1].phrase) == ("red", "burn hand")
    assert "burned your whole hand: a two and a three" in transcript.text


def test_a_forced_burn_is_asked_of_the_forced_player(tmp_path: Path, kit) -> None:
    data = {
        "format": "voicejack-table/1", "mode": "complex", "teams": False,
        "players": [{"colour": "red", "kind": "human", "hand": ["5", "9"]}, {"colour": "green", "hand": ["9"]}],
        "marbles": {"red": [3, "home", "home", "home"], "green": ["home"] * 4},
        "turn": "red", "forced_burn": True, "seed": 1,
    }
    state = table_from_dict(data)
    _, _, transcript = kit.run_match(state, ["play nine red one", "burn nine", "quit", "yes"], tmp_path / "s.json",
                                 announce=False)
    assert (state.history[0][0], state.history[0][1].phrase) == ("red", "burn nine")
    assert state.marbles[0] == 3
    assert "turned-back" in transcript.cues


def test_leaving_hands_the_seat_to_a_bot_and_the_table_is_told(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=3)
    _, outcome, transcript = kit.run_match(state, ["leave", "yes"], tmp_path / "s.json")
    assert "You left the table. A bot takes over your seat." in transcript.text
    assert outcome.winner is not None  # the bots finished the match
    assert state.seat("red").kind == "bot"


def test_silence_hands_the_seat_to_a_bot(tmp_path: Path, kit) -> None:
    class Silent:
        live = True

        def start(self, push) -> None:
            pass

        def set_grammar(self, grammar) -> None:
            pass

        def close(self) -> None:
            pass

    state = kit.two_player_state(seed=3)
    hub = InputHub()
    hub.add(Silent())
    transcript = kit.Transcript()
    match = Match(state, transcript, hub, MatchConfig(tmp_path / "s.json", settings=Settings(silence_timeout=0.05)))
    outcome = match.run()
    assert "You have been silent for 0 seconds. A bot takes over your seat." in transcript.text
    assert outcome.winner is not None


def test_resuming_an_autosave_continues_exactly_as_not_stopping(tmp_path: Path, kit) -> None:
    # The uninterrupted match.
    full = kit.two_player_state(seed=21)
    kit.run_match(full, itertools.cycle(("options", "1", "yes")), tmp_path / "full.json")
    # The same match, quit after some turns, then resumed from its autosave with the same answers.
    interrupted = kit.two_player_state(seed=21)
    answers = itertools.cycle(("options", "1", "yes"))
    first_part = list(itertools.islice(answers, 60))  # 20 prompts' worth, ends right after a "yes"
    save = tmp_path / "auto.json"
    kit.run_match(interrupted, first_part + ["quit", "yes"], save)
    resumed = load_table(save)
    assert resumed.winner is None and 0 < len(resumed.history) < len(full.history)
    kit.run_match(resumed, answers, save, announce=False)
    assert resumed.history == full.history
    assert resumed.winner == full.winner


def test_card_first_dialog_yes_repeats_the_question_and_no_cancels(tmp_path: Path, kit) -> None:
    data = {
        "format": "voicejack-table/1", "mode": "regular", "teams": True,
        "players": [{"colour": "red", "kind": "human", "hand": ["7", "A", "J", "4"]},
                    {"colour": "blue", "hand": ["9"]}, {"colour": "green", "hand": ["9"]},
                    {"colour": "yellow", "hand": ["9"]}],
        "marbles": {"red": [5, 70, "home", "home"], "blue": [12, "home", "home", "home"],
                    "green": [0, "home", "home", "home"], "yellow": [3, "home", "home", "home"]},
        "turn": "red", "seed": 3,
    }
    state = table_from_dict(data)
    lines = ["seven", "yes", "no", "seven", "red one", "five", "quit", "yes"]
    _, _, transcript = kit.run_match(state, lines, tmp_path / "s.json", announce=False)
    asked = "Which marble moves first? Your red 1 is on cell 5. Your red 2 is on cell 70."
    assert transcript.lines.count(asked) == 3  # asked, asked again after "yes", asked after starting over
    assert any(line.startswith("Cancelled. Your turn, red.") for line in transcript.lines)
    assert (state.history[0][0], state.history[0][1].phrase) == ("red", "play seven red one five red two two")


def test_a_new_command_cuts_off_what_the_game_is_saying(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)
    match, _, transcript = kit.run_match(state, ["read the board", "quit", "yes"], tmp_path / "s.json")
    lines = transcript.lines
    board = lines.index(match.readout.lines[0])
    first_prompt = next(i for i, line in enumerate(lines) if line.startswith("Your turn, red."))
    assert "<stop>" in lines[first_prompt:board]  # speech stopped before the board is read


def test_moves_made_while_the_player_sits_out_a_deal_are_told_briefly(tmp_path: Path, kit) -> None:
    """Issue 11 pacing: once red has burned the whole hand, the others' moves until the next deal go by quickly."""
    from voicejack.engine import play
    from voicejack.narration import Narrator, Verbosity

    data = {
        "format": "voicejack-table/1", "mode": "regular", "teams": False,
        "players": [{"colour": "red", "kind": "human", "hand": ["2", "3"]}, {"colour": "green", "hand": ["9", "5"]}],
        "marbles": {"red": ["home"] * 4, "green": [5, "home", "home", "home"]},
        "turn": "red", "seed": 1,
    }
    start = table_from_dict(data)
    state = table_from_dict(data)
    _, _, transcript = kit.run_match(state, ["quit the game", "yes"], tmp_path / "s.json", announce=False)
    assert "burned your whole hand" in transcript.text  # red's own burn is told in full
    sat_out, _ = play(start, state.history[0][1])
    colour, green_move = state.history[1]
    assert colour == "green"
    after, events = play(sat_out, green_move)
    brief = " ".join(Narrator(Verbosity.BRIEF).outcome(sat_out, events, after, "red"))
    full = " ".join(Narrator(Verbosity.FULL).outcome(sat_out, events, after, "red"))
    assert brief != full
    assert brief in transcript.text and full not in transcript.text
