"""What a player meets through the real loop: the board readout, last card, empty and unclear input,
stale speech, the silence warning and the resume summary."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

from voicejack.engine import events as ev
from voicejack.engine import apply_move, legal_moves, legal_phrases, make_rules, new_game
from voicejack.language import Grammar, Heard, phrase_set
from voicejack.narration import Narrator
from voicejack.table.inputs import InputHub, KeyboardSource, ScriptSource, Utterance, only_gained_commands
from voicejack.table.match import Match, MatchConfig
from voicejack.table.readout import Readout
from voicejack.table.settings import Settings
from voicejack.tablefile import table_from_dict, table_to_dict


def test_the_board_is_read_a_line_at_a_time(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)  # your turn first: nothing moves while you listen
    lines = ["read the board", "next", "next", "previous", "again", "green's marbles", "where is red one",
             "quit", "yes"]
    _, _, transcript = kit.run_match(state, lines, tmp_path / "s.json", announce=False)
    narrator = Narrator()
    board = narrator.board_lines(state, "red")
    expected = [board[0], board[1], board[2], board[1], board[1],
                narrator.player_line(state, "green", "red"), narrator.where_is(state, 0, "red")]
    assert len(board) > 3 and board[0] != board[1]
    at = -1
    for line in expected:
        at = transcript.lines.index(line, at + 1)  # each answer in turn, in the order asked


def test_again_after_the_end_of_the_board_repeats_its_last_line(tmp_path: Path, kit) -> None:
    # Help offers "next, previous or again to move through it". Before, "again" past either end repeated
    # "That was the last line" instead of the line the player was on.
    state = kit.two_player_state(seed=12)  # your turn first: nothing moves while you listen
    board = Narrator().board_lines(state, "red")
    lines = ["read the board"] + ["next"] * len(board) + ["again", "previous", "again"]
    lines += ["read the board", "previous", "again", "quit", "yes"]
    _, _, transcript = kit.run_match(state, lines, tmp_path / "s.json", announce=False)
    expected = [board[-1], "That was the last line. Say previous to go back.", board[-1], board[-2], board[-2],
                board[0], "That was the first line. Say next to go on.", board[0]]
    said = [line for line in transcript.lines if not line.startswith("<")]  # no cues or stops
    start = said.index(board[-1])
    assert said[start:start + len(expected)] == expected


def test_next_with_no_readout_says_how_to_start_one(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)
    _, _, transcript = kit.run_match(state, ["next", "quit", "yes"], tmp_path / "s.json", announce=False)
    assert "There is no list to move through. Say read the board to start one." in transcript.lines


def test_last_card_is_told_from_the_last_move_and_its_events(tmp_path: Path, kit, monkeypatch) -> None:
    asked: list[object] = []

    def last_card(self, state, listener, recent=None) -> str:
        asked.append(recent)
        return "the last card"

    monkeypatch.setattr(Narrator, "last_card", last_card)
    state = kit.two_player_state(seed=1)  # Green plays first
    kit.run_match(state, ["last card", "quit", "yes"], tmp_path / "s.json", announce=False)
    (recent,) = asked
    before, events = recent
    assert before.turn == "green" and before.history == []
    assert any(isinstance(event, ev.CardPlayed) and event.colour == "green" for event in events)


def test_an_empty_line_is_answered(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)
    hub = InputHub()
    hub.add(KeyboardSource(io.StringIO("\nquit\nyes\n"), live=False))
    transcript = kit.Transcript()
    Match(state, transcript, hub, MatchConfig(tmp_path / "s.json")).run(announce_start=False)
    assert "I heard nothing. Say help for what you can say." in transcript.lines


class SpokenHeard:
    """A microphone that hands the game the given results, one each time it listens (typed=False unless a
    result says otherwise); when they run out, "quit the game"."""

    live = False

    def __init__(self, results: Iterable[Heard]) -> None:
        self.results = iter(results)

    def start(self, push) -> None:
        self.push = push

    def set_grammar(self, grammar: Grammar) -> None:
        self.push(Utterance(next(self.results, Heard("quit the game")), grammar))

    def close(self) -> None:
        pass


def test_speech_the_recogniser_turned_down_is_not_called_nothing(tmp_path: Path, kit) -> None:
    """Said aloud but rejected (pocketsphinx's weak reading, chatter), the result comes with no text: the player
    spoke, so "I heard nothing" told them the microphone was deaf. Said and not caught, it is said so."""
    state = kit.two_player_state(seed=12)
    rejected = Heard("", (), ("play nine red one",))
    hub = InputHub()
    hub.add(SpokenHeard([rejected, Heard(""), Heard("quit the game"), Heard("yes")]))
    transcript = kit.Transcript()
    Match(state, transcript, hub, MatchConfig(tmp_path / "s.json")).run(announce_start=False)
    assert not [line for line in transcript.lines if "I heard nothing" in line]
    assert transcript.lines.count("I didn't catch that. Say it again, or say help for what you can say.") == 2


def test_a_command_the_recogniser_doubts_is_asked_about_and_answered(tmp_path: Path, kit) -> None:
    """Issue 12: a command heard doubted is asked about ("Did you say ...?"); yes carries it out, no drops it."""
    state = kit.two_player_state(seed=12)
    hub = InputHub()
    hub.add(SpokenHeard([Heard("where is red one", (0.5,) * 4, doubted=True), Heard("yes", (0.9,)),
                         Heard("read the board", (0.5,) * 3, doubted=True), Heard("no", (0.9,)),
                         Heard("quit the game"), Heard("yes")]))
    transcript = kit.Transcript()
    Match(state, transcript, hub, MatchConfig(tmp_path / "s.json")).run(announce_start=False)
    said = [line for line in transcript.lines if not line.startswith("<")]
    where = said.index("Did you say where is red one? Yes or no.")
    assert said[where + 1] == "Your red 1 is at home."
    board = said.index("Did you say read the board? Yes or no.")
    assert said[board + 1].startswith("Cancelled. Your turn, red.")


def test_gibberish_is_never_read_back_in_full(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)
    gibberish = "flibber jabber " * 400
    _, _, transcript = kit.run_match(state, [gibberish, "quit", "yes"], tmp_path / "s.json", announce=False)
    answer = next(line for line in transcript.lines if "flibber" in line)
    assert len(answer) < 120


STALE = {
    "format": "voicejack-table/1", "mode": "regular", "teams": False,
    "players": [{"colour": "red", "kind": "human", "hand": ["9"]}, {"colour": "green", "hand": ["9"]}],
    "marbles": {"red": [10, "home", "home", "home"], "green": ["home"] * 4},
    "turn": "red", "seed": 1,
}


def test_speech_heard_under_an_old_grammar_is_not_played_in_the_new_position(tmp_path: Path, kit) -> None:
    """"play nine red one" is legal now, but was heard while the game listened for another position."""
    state = table_from_dict(STALE)
    match, _, source, printed = kit.live_match(state, tmp_path / "s.json")
    old = Grammar(("play nine red one", "read the board"))
    source.push(Utterance(Heard("play nine red one"), old))
    source.push(Utterance(Heard("read the board"), old))  # a plain command means the same in any position
    source.type("quit", "yes")
    match.run(announce_start=False)
    assert state.history == []
    assert "The game moved on while you were speaking. Please say that again." in printed.text
    assert Narrator().board_lines(state, "red")[0] in printed.text


def test_a_silent_player_is_warned_before_losing_the_seat(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)
    match, _, _, printed = kit.live_match(state, tmp_path / "s.json", settings=Settings(silence_timeout=0.6))
    started = time.monotonic()
    match.run(announce_start=False)
    warned = printed.first("Are you still there? Say anything to keep your seat.")
    handed = printed.first("You have been silent for")
    assert started + 0.2 < warned < handed
    assert handed - warned >= 0.25  # time left to answer


def test_resuming_says_who_you_are_and_what_is_played(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)
    hub = InputHub()
    hub.add(ScriptSource(["quit", "yes"]))
    transcript = kit.Transcript()
    Match(state, transcript, hub, MatchConfig(tmp_path / "s.json")).run(announce_start=False, resumed=True)
    summary = Narrator().resume_summary(state, "red")
    assert summary and transcript.lines[:len(summary)] == summary


def test_mono_is_a_setting_given_to_the_audio_output(tmp_path: Path, kit, monkeypatch) -> None:
    import voicejack.audio.output
    from voicejack.app.play import play_main

    made: list[object] = []

    class Recorded(kit.FakeAudio):
        def __init__(self, mono: bool = False, **options: object) -> None:
            super().__init__(mono=mono, **options)
            made.append(self)

    monkeypatch.setattr(voicejack.audio.output, "AudioOutput", Recorded)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO("louder\nquit\nyes\n"))
    assert play_main(["--players", "2", "--seed", "3", "--mono", "--keyboard"]) == 0
    (audio,) = made
    assert audio.options["mono"] is True
    assert audio.mono is True  # kept when "louder" changed the settings
    assert json.loads((tmp_path / "config" / "voicejack" / "settings.json").read_text())["mono"] is True


@pytest.mark.parametrize("line", ["green's marbles", "green marbles"])
def test_a_players_marbles_on_request(tmp_path: Path, kit, line: str) -> None:
    state = kit.two_player_state(seed=12)
    _, _, transcript = kit.run_match(state, [line, "quit", "yes"], tmp_path / "s.json", announce=False)
    assert Narrator().player_line(state, "green", "red") in transcript.lines


def test_option_one_before_the_options_were_read_says_how_to_hear_them(tmp_path: Path, kit) -> None:
    # Before: "I didn't catch option one." Now a refusal (error cue) saying what to do; once read, it picks.
    state = kit.two_player_state(seed=12)  # your turn first
    first_option = Narrator().describe_options(state, "red")[0][0]
    lines = ["option one", "options", "option one", "yes", "quit", "yes"]
    match, _, transcript = kit.run_match(state, lines, tmp_path / "s.json", announce=False)
    assert "No options have been read out yet. Say options to hear them with their numbers." in transcript.lines
    assert not any("catch" in line for line in transcript.lines)
    assert match.state.history[0] == ("red", first_option)  # the first option read out, then played


BLOCKED_SEVEN = {
    "format": "voicejack-table/1", "mode": "regular", "teams": False,
    "players": [{"colour": "red", "kind": "human", "hand": ["7", "9", "5", "4"]},
                {"colour": "green", "hand": ["K", "3", "2", "8"]}],
    "marbles": {"red": [10, 5, "home", "home"], "green": [40, "home", "home", "home"]},
    "turn": "red", "seed": 3,
}
REASON = "Red 2 can't walk seven: your red 1 is in the way on cell 10."


def test_say_that_again_after_a_refusal_says_the_reason_again_then_what_is_still_open(tmp_path: Path, kit) -> None:
    """A player who did not catch why a move was refused (R22 here) asks for it again: before, "say that again"
    repeated only the turn's prompt, and the reason was never heard twice."""
    state = table_from_dict(BLOCKED_SEVEN)
    _, _, transcript = kit.run_match(state, ["play seven red two seven", "say that again", "say that again",
                                             "seven", "red three", "say that again", "my cards", "say that again",
                                             "quit", "yes"], tmp_path / "s.json", announce=False)
    lines = transcript.lines
    turn = next(line for line in lines if line.startswith("Your turn, red."))
    refused_at = lines.index(REASON)
    assert lines[refused_at + 1:refused_at + 5] == [REASON, turn, REASON, turn]
    assert transcript.cues.count("turned-back") == 2  # the cue comes with each refusal, not with its repeat
    question = next(line for line in lines if line.startswith("Which marble moves first?"))
    not_a_choice = next(line for line in lines if line.startswith("Red 3 is not"))
    after = lines.index(not_a_choice)
    assert lines[after + 1:after + 3] == [not_a_choice, question]  # the question is still open
    cards = next(line for line in lines[after:] if line.startswith("You hold"))
    assert lines[lines.index(cards) + 1] == cards  # a new answer replaced the refusal


def test_say_that_again_after_undo_is_refused_repeats_why(tmp_path: Path, kit) -> None:
    state = table_from_dict(BLOCKED_SEVEN)
    _, _, transcript = kit.run_match(state, ["take that back", "say that again", "quit", "yes"], tmp_path / "s.json",
                                     announce=False)
    lines = transcript.lines
    why = lines[lines.index("<cue turned-back>") + 1]
    assert lines[lines.index(why) + 1] == why


OWN_CAPTURE = {
    "format": "voicejack-table/1", "mode": "regular", "teams": False,
    "players": [{"colour": "red", "kind": "human", "hand": ["5", "9"]}, {"colour": "green", "hand": ["K", "3"]}],
    "marbles": {"red": [10, 5, "home", "home"], "green": [40, "home", "home", "home"]},
    "turn": "red", "seed": 3,
}


def test_while_yes_or_no_is_asked_what_was_not_caught_reminds_the_player_of_the_question(tmp_path: Path, kit) -> None:
    """A move sending home the player's own marble is confirmed first. Before, "maybe" was answered "I didn't
    catch maybe." and speech the recogniser turned down "say help for what you can say": nothing said the
    question was still open. Typed and spoken alike."""
    state = table_from_dict(OWN_CAPTURE)
    hub = InputHub()
    hub.add(SpokenHeard([Heard("play five red two"), Heard("maybe"), Heard("", (), ("yes",)), Heard("no"),
                         Heard("quit the game"), Heard("yes")]))
    transcript = kit.Transcript()
    Match(state, transcript, hub, MatchConfig(tmp_path / "s.json", settings=Settings(undo_seconds=0))).run(
        announce_start=False)
    lines = transcript.lines
    question = next(line for line in lines if line.endswith("Yes or no?"))
    after = [line for line in lines[lines.index(question) + 1:] if line != "<stop>"]
    assert after[:2] == ["I didn't catch maybe. Please answer yes or no.", "I didn't catch that. Please answer yes or no."]
    assert after[2].startswith("Cancelled.")
    assert not state.history  # nothing was played


@pytest.mark.parametrize(("mode", "paused", "warning"), [
    ("wake", False, "Are you still there? Say Jackaroo and anything, or type anything, to keep your seat."),
    ("push", False, "Are you still there? Press Enter and say anything, or type anything, to keep your seat."),
    ("open", True, "Are you still there? Say start listening, or type anything, to keep your seat."),
])
def test_the_silence_warning_says_what_keeps_the_seat_in_the_listening_mode(
        tmp_path: Path, kit, mode: str, paused: bool, warning: str) -> None:
    """"Say anything to keep your seat": in wake mode anything said without the wake word, in push mode without
    Enter, and with the microphone stopped anything but "start listening" is ignored, so a player who did as
    told lost the seat to a bot."""
    from voicejack.table.listening import make_gate

    state = kit.two_player_state(seed=12)
    match, _, source, printed = kit.live_match(state, tmp_path / "s.json", settings=Settings(silence_timeout=0.6))
    source.gate = make_gate(Settings(listen=mode))  # the microphone's gate, as VoiceSource carries it
    if paused:
        source.gate.pause()
    match.run(announce_start=False)
    assert warning in printed.text


def test_help_names_a_colour_that_plays_at_this_table(tmp_path: Path, kit) -> None:
    # Before: help offered "blue's marbles" at a two-player table (red and green, R1), and typing it as
    # suggested was answered "I didn't catch blue's marbles."
    state = kit.two_player_state(seed=12)  # your turn first, red against green
    _, _, transcript = kit.run_match(state, ["help", "quit", "yes"], tmp_path / "s.json", announce=False)
    help_line = next(line for line in transcript.lines if line.startswith("Say or type a move"))
    assert "green's marbles" in help_line
    assert "blue" not in help_line
    four, _ = new_game(make_rules(4, True, "regular"), seed=8)
    _, _, transcript = kit.run_match(four, ["help", "quit", "yes"], tmp_path / "t.json", announce=False)
    assert "blue's marbles" in next(line for line in transcript.lines if line.startswith("Say or type a move"))


def test_quitting_when_the_save_fails_never_says_the_match_was_saved(tmp_path: Path, kit) -> None:
    # Before: "Match saved to ... Resume it with ..." though nothing could be written there.
    state = kit.two_player_state(seed=12)  # your turn first
    unwritable = tmp_path / "a-file" / "s.json"
    (tmp_path / "a-file").write_text("not a folder")
    _, _, transcript = kit.run_match(state, ["quit", "yes"], unwritable, announce=False)
    last = transcript.lines[-1]
    assert "could not be saved" in last and str(unwritable) in last
    assert not any(line.startswith("Match saved") for line in transcript.lines)
    assert not unwritable.exists()


def test_a_failing_autosave_is_told_once_not_after_every_move(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)
    unwritable = tmp_path / "a-file" / "s.json"
    (tmp_path / "a-file").write_text("not a folder")
    lines = ["options", "1", "yes"] * 4 + ["quit", "yes"]
    match, _, transcript = kit.run_match(state, lines, unwritable, announce=False)
    assert len(match.state.history) >= 4
    assert sum(line.startswith("Autosave to") for line in transcript.lines) == 1


MANY_OPTIONS = {
    "format": "voicejack-table/1", "mode": "regular", "teams": True,
    "players": [{"colour": "red", "kind": "human", "hand": ["7", "J", "A", "4", "2"]},
                {"colour": "blue", "hand": ["2", "3", "5", "8", "9"]},
                {"colour": "green", "hand": ["A", "Q", "J", "10", "6"]},
                {"colour": "yellow", "hand": ["7", "7", "2", "3", "6"]}],
    "marbles": {"red": [10, "safe 1", 40, "home"], "blue": [25, "home", "home", "home"],
                "green": [50, "home", "home", "home"], "yellow": [60, "home", "home", "home"]},
    "turn": "red", "deal": 2, "seed": 7,
}


def test_say_that_again_repeats_a_long_list_of_options_from_its_first_line(tmp_path: Path, kit) -> None:
    # Before: with 31 options, "say that again" began at option 8: the question and options 1-7 were lost.
    state = table_from_dict(MANY_OPTIONS)
    _, _, transcript = kit.run_match(state, ["options", "say that again", "quit", "yes"], tmp_path / "s.json",
                                     announce=False)
    said = [line for line in transcript.lines if not line.startswith("<")]
    listed = said[said.index("Your options."):]
    count = next(index for index, line in enumerate(listed) if index and not line[:1].isdigit())
    assert count > 25
    assert listed[count:2 * count] == listed[:count]


class NotingScript(ScriptSource):
    """Typed lines, noting for each whether the game was listening for "next" when it was said."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines)
        self.upcoming = list(lines)
        self.listening_for_next: list[tuple[str, bool]] = []

    def set_grammar(self, grammar) -> None:
        if self.upcoming:
            self.listening_for_next.append((self.upcoming.pop(0), "next" in grammar.phrases))
        super().set_grammar(grammar)


def test_next_is_listened_for_while_the_board_is_read_until_the_players_move(tmp_path: Path, kit) -> None:
    # Issue 12, fortieth round: a bare "yes" said to the table was obeyed as "next" when no list was being read.
    # "next" and "previous" are listened for from "read the board" until the player's move; typed, "next" after
    # the move says there is no list, and reading the board again tells it as it is now.
    state = kit.two_player_state(seed=12)  # your turn first, then Green's
    before = Narrator().board_lines(state, "red")
    move = legal_phrases(state)[0]
    lines = ["read the board", "next", move, "next", "read the board", "next", "quit", "yes"]
    script = NotingScript(lines)
    hub = InputHub()
    hub.add(script)
    transcript = kit.Transcript()
    match = Match(state, transcript, hub, MatchConfig(tmp_path / "s.json", settings=Settings()))
    match.run(announce_start=False)
    heard = [(line, listening) for line, listening in script.listening_for_next if line != "yes"]
    assert heard == [("read the board", False), ("next", True), (move, True), ("next", False),
                     ("read the board", False), ("next", True), ("quit", True)]
    now = Narrator().board_lines(match.state, "red")
    assert now[1] != before[1]  # the moves changed what that line says
    said = [line for line in transcript.lines if not line.startswith("<")]
    after_move = said[said.index(before[1]) + 1:]
    no_list = "There is no list to move through. Say read the board to start one."
    assert after_move.index(no_list) < after_move.index(now[0]) < after_move.index(now[1])


class SpokenLate(ScriptSource):
    """Spoken lines, each recognised under the grammar the game listened with before (the player began it
    before the game switched grammar); typed once ``typed_from`` is reached."""

    def __init__(self, lines: list[str], typed_from: int) -> None:
        super().__init__([])
        self.lines, self.typed_from, self.said = list(lines), typed_from, 0
        self.grammars: list[Grammar] = []

    def set_grammar(self, grammar: Grammar) -> None:
        self.grammars.append(grammar)
        if not self.lines:
            return super().set_grammar(grammar)
        line, heard_under = self.lines.pop(0), self.grammars[max(0, len(self.grammars) - 2)]
        self.said += 1
        spoken = self.said <= self.typed_from
        heard = Heard(line, (0.99,) * len(line.split())) if spoken else Heard(line, typed=True)
        self._push(Utterance(heard, heard_under if spoken else None))


def test_a_move_begun_before_the_board_was_read_out_is_played_not_stale(tmp_path: Path, kit) -> None:
    # "read the board" widens the grammar by "next" and "previous" only: a move recognised under the grammar
    # from before still means what it meant, so it is played, not answered with "the game moved on".
    state = kit.two_player_state(seed=12)
    move = legal_phrases(state)[0]
    source = SpokenLate(["read the board", move, "quit", "yes"], typed_from=2)
    hub = InputHub()
    hub.add(source)
    transcript = kit.Transcript()
    match = Match(state, transcript, hub, MatchConfig(tmp_path / "s.json", settings=Settings(confirm="never")))
    match.run(announce_start=False)
    widened = source.grammars[1]
    assert "next" in widened.phrases and "next" not in source.grammars[0].phrases
    assert not any("moved on" in line for line in transcript.lines)
    assert match.state.history and match.state.history[0][1].phrase == move


def test_only_a_grammar_that_gained_nothing_but_commands_keeps_what_was_heard_under_it() -> None:
    state, _ = new_game(make_rules(2, False, "regular"), seed=12)
    plain, listing = phrase_set(state, state.turn), phrase_set(state, state.turn, listing=True)
    assert only_gained_commands(plain, listing) and only_gained_commands(plain, plain)
    assert not only_gained_commands(listing, plain)  # "next" heard, then the list closed
    apply_move(state, legal_moves(state)[0])
    assert not only_gained_commands(plain, phrase_set(state, state.turn, listing=True))  # the position moved on


def test_a_list_being_read_is_read_again_from_the_board_as_it_is_now() -> None:
    # "next" while others' moves are played (a bot's turn, a remote table) tells the board as it is now, never
    # marbles on cells they have left.
    board = ["summary", "red: home", "green: home"]
    readout = Readout()
    assert not readout.open
    assert readout.start(board, reread=lambda listener: board) == "summary" and readout.open
    board[1:] = ["red: cell 4", "green: cell 40"]
    assert readout.step(1, "red") == ("red: cell 4", True)
    assert readout.step(1, "red") == ("green: cell 40", True)
    assert readout.step(1, "red")[1] is False  # past the end: the player stays on the last line
    readout.close()
    assert not readout.open and readout.step(1, "red")[1] is False


def ctrl_c_after(lines: list[str]):
    """Typed ``lines``, then the player presses Ctrl-C while the game waits for them (to hand to SpokenHeard)."""
    for line in lines:
        yield Heard(line, typed=True)
    raise KeyboardInterrupt


def test_ctrl_c_is_said_aloud_and_saves_the_match_as_it_stands(tmp_path: Path, kit) -> None:
    # Before: "Stopped." was printed on the terminal only, which a player without a screen never hears.
    state = kit.two_player_state(seed=12)  # your turn first
    hub = InputHub()
    hub.add(SpokenHeard(ctrl_c_after(["options", "1", "yes"])))
    transcript = kit.Transcript()
    save = tmp_path / "s.json"
    match = Match(state, transcript, hub, MatchConfig(save, resume_hint="voicejack resume s.json"))
    outcome = match.run(announce_start=False)
    assert outcome.interrupted and outcome.winner is None
    assert transcript.lines[-2:] == ["<stop>", f"Stopped. The match is saved to {save}. Resume it with: voicejack resume s.json."]
    saved = table_from_dict(json.loads(save.read_text()))
    assert len(saved.history) == len(match.state.history) >= 2  # your move and the bot's are kept
    assert table_to_dict(saved) == table_to_dict(match.state)


def test_ctrl_c_in_the_middle_of_a_move_saves_the_position_before_it(tmp_path: Path, kit, monkeypatch) -> None:
    from voicejack.engine import apply_move

    state = kit.two_player_state(seed=12)
    before = state.copy()

    def cut_off(game, move):
        apply_move(game, move)
        raise KeyboardInterrupt

    monkeypatch.setattr("voicejack.table.match.apply_move", cut_off)
    save = tmp_path / "s.json"
    _, outcome, transcript = kit.run_match(state, ["options", "1", "yes"], save, announce=False)
    assert outcome.interrupted
    assert json.loads(save.read_text()) == table_to_dict(before)
    assert transcript.lines[-1].startswith("Stopped. The match is saved to")


def test_ctrl_c_when_the_match_cannot_be_saved_never_says_it_was(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)
    unwritable = tmp_path / "a-file" / "s.json"
    (tmp_path / "a-file").write_text("not a folder")
    hub = InputHub()
    hub.add(SpokenHeard(ctrl_c_after([])))
    transcript = kit.Transcript()
    Match(state, transcript, hub, MatchConfig(unwritable)).run(announce_start=False)
    assert transcript.lines[-1].startswith(f"Stopped. The match could not be saved to {unwritable}:")
