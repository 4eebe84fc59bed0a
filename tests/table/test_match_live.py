"""The loop while the game is talking: commands act at once, and what is heard comes in order.

These matches use a stand-in for the audio output that keeps the promised timeline in wall-clock time,
and a person typing at moments of their own choosing (not when the game listens).
"""

from __future__ import annotations

import time
from pathlib import Path

from voicejack.audio.cuenames import Cue
from voicejack.engine import apply_move, legal_phrases, make_rules, new_game
from voicejack.language import Heard
from voicejack.table.inputs import InputHub, ScriptSource, Utterance
from voicejack.table.match import Match, MatchConfig
from voicejack.table.presenter import Presenter
from voicejack.tablefile import table_from_dict

PROMPT_DELAY = 0.3  # a fraction of a second: the most a command may wait while the game is talking


def _bot_speaks(colour: str):
    return lambda text, seat: seat == colour


def test_the_turn_and_win_cues_are_heard_once_each(tmp_path: Path, kit) -> None:
    """The events own the "your turn" and "win" cues: the loop must not play them a second time."""
    state = kit.two_player_state(seed=2)  # Green plays first: each of red's turns is passed on by a move
    audio = kit.FakeAudio()
    printed: list[str] = []
    hub = InputHub()
    hub.add(ScriptSource(kit.always_first_option()))
    outcome = Match(state, Presenter(audio, write=printed.append), hub, MatchConfig(tmp_path / "s.json")).run()
    assert outcome.winner is not None
    assert sum(line.startswith("Your turn, red.") for line in printed) >= 10
    # One cue for each of red's turns, prompted or not (a whole-hand burn, R30, is played without asking).
    assert len(audio.cues(Cue.YOUR_TURN)) == sum(colour == "red" for colour, _ in state.history)
    assert len(audio.cues(Cue.WIN)) == 1


def test_stop_talking_cuts_a_bot_narration_at_once(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=1)  # Green, a bot, plays first
    match, audio, source, _ = kit.live_match(state, tmp_path / "s.json", seconds_per_word=0.25)

    def player() -> None:
        time.sleep(0.3)  # well inside the bot's sentence of several seconds
        source.type("stop talking")
        time.sleep(0.5)
        source.type("quit", "yes", gap=0.2)

    audio.when_said(_bot_speaks("green"), player)
    match.run(announce_start=False)
    said_at = source.typed_at["stop talking"]
    stopped = [at for at, kind, _, _ in audio.log if kind == "stop" and at >= said_at]
    assert stopped and stopped[0] - said_at < PROMPT_DELAY


def test_an_out_of_turn_move_is_refused_while_a_bot_is_narrated(tmp_path: Path, kit) -> None:
    state, _ = new_game(make_rules(4, True, "regular"), seed=8)  # you (red) and three bots
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", seconds_per_word=0.25)
    refusals: list[str] = []

    def player() -> None:
        time.sleep(0.3)
        refusals.append(f"It is {match.state.seat(match.state.turn).name}'s turn, not yours.")
        source.type("play king red one")
        time.sleep(0.5)
        source.type("quit", "yes", gap=0.2)

    # While a bot's move is told and another bot is to play next, red tries to move.
    audio.when_said(lambda text, seat: seat not in (None, "red") and match.state.turn != "red", player)
    match.run(announce_start=False)
    said_at = source.typed_at["play king red one"]
    refused_at = printed.first(refusals[0], after=said_at)
    assert refused_at - said_at < PROMPT_DELAY
    assert all(colour != "red" for colour, _ in state.history)  # nothing was played for red


def test_a_move_said_before_the_prompt_is_played_on_the_players_turn(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=1)  # Green plays first; then it is your turn
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", seconds_per_word=0.25)
    typed: list[str] = []

    def player() -> None:
        time.sleep(0.3)  # Green's move is still being told, but the turn is already red's
        typed.append(legal_phrases(match.state)[0])
        source.type(typed[0])

    audio.when_said(_bot_speaks("green"), player)
    audio.when_said(_bot_speaks("red"), lambda: source.type("quit", "yes", gap=0.2))
    match.run(announce_start=False)
    assert ("red", typed[0]) in [(colour, move.phrase) for colour, move in state.history]
    assert "not yours" not in printed.text


def test_say_that_again_repeats_the_bot_move_just_heard(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=1)
    _, _, transcript = kit.run_match(state, ["say that again", "quit", "yes"], tmp_path / "s.json", announce=False)
    bot_move = next(line for line in transcript.lines if line.startswith("Green played"))
    assert transcript.lines.count(bot_move) == 2


CONFIRMED_CAPTURE = {
    "format": "voicejack-table/1", "mode": "regular", "teams": False,
    "players": [{"colour": "red", "kind": "human", "hand": ["2", "5"]}, {"colour": "green", "hand": ["9", "9"]}],
    "marbles": {"red": [10, 12, "home", "home"], "green": [40, "home", "home", "home"]},
    "turn": "red", "seed": 1,
}


def test_say_that_again_never_repeats_a_question_already_answered(tmp_path: Path, kit) -> None:
    state = table_from_dict(CONFIRMED_CAPTURE)
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", seconds_per_word=0.05)
    audio.when_said(_bot_speaks("red"), lambda: source.type("say that again"))  # while your own move is told
    audio.when_said(_bot_speaks("green"), lambda: source.type("quit", "yes", gap=0.3))
    source.type("play two red one", "yes")
    match.run(announce_start=False)
    lines = [line for _, line in printed.lines]
    question = next(line for line in lines if "yes or no" in line.lower())
    own_move = next(line for line in lines if line.startswith("You played a two"))
    assert lines.count(question) == 1
    assert lines.count(own_move) == 2


def test_cancel_with_nothing_pending_has_one_answer_in_and_out_of_turn(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=1)
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", seconds_per_word=0.1)
    audio.when_said(_bot_speaks("green"), lambda: source.type("cancel"))
    audio.when_said(lambda text, seat: text.startswith("Your turn"), lambda: source.type("cancel", "quit", "yes",
                                                                                          gap=0.2))
    match.run(announce_start=False)
    answers = [line for _, line in printed.lines if "turn, not yours" in line or "no question waiting" in line]
    assert answers == ["There is no question waiting for an answer."] * 2


def test_a_command_doubted_out_of_turn_is_asked_about_and_answered(tmp_path: Path, kit) -> None:
    """Issue 12: while a bot plays, a command heard doubted is asked about as in turn ("quit?" was the only one)."""
    state = kit.two_player_state(seed=1)  # Green, a bot, plays first
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", seconds_per_word=0.25)

    def player() -> None:
        source.push(Utterance(Heard("where is red one", (0.5,) * 4, doubted=True)))
        time.sleep(0.2)
        source.type("yes")
        time.sleep(0.2)
        source.push(Utterance(Heard("what is the score", (0.5,) * 4, doubted=True)))
        time.sleep(0.2)
        source.type("no")

    audio.when_said(_bot_speaks("green"), player)
    audio.when_said(lambda text, seat: text.startswith("Your turn, red"), lambda: source.type("quit", "yes", gap=0.2))
    match.run(announce_start=False)
    lines = [line for _, line in printed.lines]
    where = lines.index("Did you say where is red one? Yes or no.")
    assert lines[where + 1] == "Your red 1 is at home."
    score = lines.index("Did you say what is the score? Yes or no.")
    assert lines[score + 1] == "Cancelled."
    assert not [line for line in lines if "no question waiting" in line or "not yours" in line]


def test_a_move_typed_while_a_bot_is_still_choosing_is_refused_not_played_next_turn(tmp_path: Path, kit) -> None:
    """The guide: a card pressed when it is not your turn is turned back and nothing changes. A move typed
    while the bot thinks is out of turn, even though the turn is red's once the bot has moved."""
    state = kit.two_player_state(seed=1)  # Green, a bot, plays first
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json")
    bot_for = match._bot
    typed: list[str] = []

    class SlowBot:
        def __init__(self, colour: str) -> None:
            self.bot = bot_for(colour)

        def choose(self, position, moves):
            move = self.bot.choose(position, moves)
            if not typed:  # red types a move that would be legal once Green's move is made
                after = position.copy()
                apply_move(after, move)
                typed.append(legal_phrases(after)[0])
                source.type(typed[0])
            return move

    match._bot = SlowBot  # type: ignore[method-assign]
    audio.when_said(lambda text, seat: text.startswith("Your turn, red"), lambda: source.type("quit", "yes", gap=0.2))
    match.run(announce_start=False)
    assert typed
    assert "It is Green's turn, not yours." in printed.text
    assert all(colour != "red" for colour, _ in state.history)
