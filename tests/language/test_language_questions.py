"""Issue 11, "never a move the player did not clearly ask for": answers are values, two readings are asked about,
and the card-first questions say where each marble stands and where it would land."""

from __future__ import annotations

from pathlib import Path

import pytest
from lang_positions import POSITIONS, others, table

from voicejack.engine import Move, MoveKind, legal_moves, make_rules, new_game
from voicejack.engine.state import Seat
from voicejack.language import (
    Ask,
    Choice,
    Confirm,
    Conversation,
    Heard,
    LanguageSettings,
    NotUnderstood,
    NotUnderstoodCode,
    Resolver,
    Topic,
    resolve,
)
from voicejack.narration.narrator import Narrator, Verbosity
from voicejack.table.inputs import InputHub, ScriptSource
from voicejack.table.match import Match, MatchConfig
from voicejack.table.presenter import Presenter
from voicejack.table.settings import Settings

BRIEF = Narrator(Verbosity.BRIEF)
WALL = POSITIONS["wall"]  # red 1 on 30 behind blue's wall on 31-32: the ace's 1 step captures blue 1


def talk(state: object, *texts: str, seat: str = "red") -> object:
    conversation = Conversation(seat)
    result: object = None
    for text in texts:
        result = conversation.hear(state, text)  # type: ignore[arg-type]
    return result


@pytest.mark.parametrize("answer", ["one", "1", "One."])
def test_a_bare_one_after_ace_is_asked_about_not_walked(answer: str) -> None:
    # Before: "one" walked the ace one step and sent blue 1 home, though choice 1 was "bring a marble out".
    asked = talk(WALL, "ace", answer)
    assert isinstance(asked, Ask) and asked.topic is Topic.MEANING
    assert asked.spoken() == "Did you mean option 1, bring a marble out, or 1 step?"
    assert talk(WALL, "ace", answer, "out") == Move("A", MoveKind.OUT)
    assert talk(WALL, "ace", answer, "option one") == Move("A", MoveKind.OUT)


def test_the_values_themselves_answer_the_ace_at_once() -> None:
    one_step = next(m for m in legal_moves(WALL) if m.card == "A" and m.steps == 1)
    assert talk(WALL, "ace", "one step") == one_step
    assert talk(WALL, "ace", "out") == Move("A", MoveKind.OUT)
    eleven = talk(POSITIONS["mid"], "ace", "eleven")
    assert isinstance(eleven, Ask) and eleven.topic is Topic.MARBLE


def test_the_sevens_steps_a_bare_number_that_is_another_choices_number_is_asked_about() -> None:
    # Red 1 in safe place 1 may walk 2 or 3 first: "two" is the value 2 and choice 2 (3 steps).
    state = POSITIONS["seven_safe"]
    asked = talk(state, "seven", "red one", "two")
    assert isinstance(asked, Ask) and [c.label for c in asked.choices] == ["2 steps", "option 2, 3 steps"]
    assert isinstance(talk(state, "seven", "red one", "two steps"), Move)
    three = talk(state, "seven", "red one", "three")  # only a value: there is no choice 3
    assert isinstance(three, Move) and three.steps == 3


def test_a_bare_number_that_is_only_a_choices_number_is_confirmed() -> None:
    confirm = talk(POSITIONS["mid"], "jack", "red two", "three")
    assert isinstance(confirm, Confirm)
    assert confirm.prompt.startswith("Option 3: Jack: red 2 on cell 30, with yellow 1 on cell 50.")
    assert confirm.prompt.endswith("Yes or no?")


def _options_question(state: object, seat: str) -> Ask:
    """The numbered list the table reads on "options" (table/match.py builds it the same way)."""
    options = BRIEF.describe_options(state, seat)  # type: ignore[arg-type]
    return Ask("Your options.", tuple(Choice(d, m, (m.phrase,)) for m, d in options), Topic.OPTION)


def test_after_the_options_a_card_and_an_option_number_are_asked_about() -> None:
    # The player holds a two (card) and option 2 is something else: "two" has two readings.
    state = table({"red": ["2", "9"], **others("3")}, {"red": [10, "home", "home", "home"]})
    conversation = Conversation("red")
    conversation.pending = _options_question(state, "red")
    asked = conversation.hear(state, "two")
    assert isinstance(asked, Ask) and asked.topic is Topic.MEANING
    assert asked.question.startswith("Did you mean option 2, Nine: red 1") and asked.question.endswith(", or the two?")
    assert conversation.hear(state, "option two") == legal_moves(state)[1] == Move("9", MoveKind.WALK, 0, 9)


def _seed_one_match(lines: list[str], tmp_path: Path) -> tuple[list[str], list[tuple[str, str]]]:
    said: list[str] = []
    state, _ = new_game(make_rules(2, False, "regular"), seed=1,
                        seats=(Seat("red", "Red", "human"), Seat("green", "Green", "bot")))
    hub = InputHub()
    hub.add(ScriptSource(lines))
    Match(state, Presenter(None, write=said.append), hub, MatchConfig(tmp_path / "save.json", settings=Settings())).run(
        announce_start=False)
    return said, state.history


def test_seed_one_king_options_two_no_longer_plays_option_two(tmp_path: Path) -> None:
    """`voicejack play --players 2 --seed 1 --keyboard`: "king", "options", "two" played option 2, a five."""
    said, history = _seed_one_match(["king", "options", "two", "quit", "yes"], tmp_path)
    red = [move.phrase for colour, move in history if colour == "red"]
    assert red == ["play king out"]  # the five was not played
    asked = next(line for line in said if line.startswith("Option 2: "))
    assert asked.startswith("Option 2: Five: red 1") and asked.endswith("Yes or no?")
    said, history = _seed_one_match(["king", "options", "two", "yes", "quit", "yes"], tmp_path)
    assert [move.phrase for colour, move in history if colour == "red"] == ["play king out", "play five red one"]



def test_no_to_a_confirmed_option_goes_back_to_the_options(tmp_path: Path) -> None:
    """"two" -> "Option 2: ... Yes or no?" -> "no": the options are asked again, so "option one" still picks."""
    said, history = _seed_one_match(["king", "options", "two", "no", "option one", "quit", "yes"], tmp_path)
    assert [move.phrase for colour, move in history if colour == "red"] == ["play king out", "play three red one"]
    declined = said.index(next(line for line in said if line.startswith("Option 2: ")))
    assert said[declined + 1].startswith("Your options.")  # asked again, not dropped


COLLIDING_ONE_WORD_COMMANDS = ("full", "brief", "stop", "save", "quit", "score", "leave", "back", "board", "hand",
                               "cards", "again", "silence", "slower", "faster", "louder", "quieter", "softer")


def test_one_word_commands_that_collide_are_typed_only() -> None:
    resolver = Resolver()
    for state in POSITIONS.values():
        for seat in state.rules.seats:
            phrases = set(resolver.phrase_set(state, seat).phrases)
            assert not phrases & set(COLLIDING_ONE_WORD_COMMANDS), (seat, phrases & set(COLLIDING_ONE_WORD_COMMANDS))
    mid = POSITIONS["mid"]
    assert str(resolve(mid, "red", "full")) == "full"                       # typed: still the command
    spoken = resolve(mid, "red", Heard("more detail"))
    assert str(spoken) == "full"
    steps = talk(mid, "seven", "red one")
    assert isinstance(steps, Ask)
    assert "full" not in resolver.phrase_set(mid, "red", steps).phrases   # a "four" cannot come out as "full"


def test_gibberish_is_quoted_in_a_few_words_only() -> None:
    long_line = resolve(POSITIONS["mid"], "red", "x" * 5000)
    assert isinstance(long_line, NotUnderstood) and long_line.reason == "I didn't catch that."
    words = resolve(POSITIONS["mid"], "red", "flibber jabber wocky snark boojum frumious bandersnatch")
    assert isinstance(words, NotUnderstood) and words.reason == "I didn't catch flibber jabber wocky snark and the rest."


@pytest.mark.parametrize("line", ["", "   "])
def test_an_empty_line_gets_a_short_answer(line: str) -> None:
    result = resolve(POSITIONS["mid"], "red", line)
    assert isinstance(result, NotUnderstood) and result.code is NotUnderstoodCode.EMPTY
    assert result.reason == "I didn't hear anything."


# --- what the card-first questions say --------------------------------------------------


def test_a_marble_question_says_where_each_marble_would_land() -> None:
    mid = POSITIONS["mid"]
    asked = resolve(mid, "red", "nine")
    assert isinstance(asked, Ask)
    nines = sorted((m for m in legal_moves(mid) if m.card == "9"), key=lambda m: m.marble)
    described = " ".join(BRIEF.describe_option(mid, move, "red") for move in nines)
    assert asked.spoken() == f"Which marble for the nine? {described}"


def test_a_marble_leading_to_more_questions_says_where_it_stands() -> None:
    asked = resolve(POSITIONS["mid"], "red", "seven")
    assert isinstance(asked, Ask)
    assert asked.spoken() == "Which marble moves first? Your red 1, on cell 10. Your red 2, on cell 30."


def test_the_partners_marbles_are_named_as_the_partners() -> None:
    asked = resolve(POSITIONS["partner"], "red", "nine")
    assert isinstance(asked, Ask)
    assert [c.label for c in asked.choices] == ["your partner's green 1", "your partner's green 2"]
    assert asked.spoken().startswith("Which marble for the nine? Your partner's green 1: Nine: green 1, from cell 40")


def test_the_sevens_second_question_says_how_many_steps_are_left() -> None:
    state = table({"red": ["7"], **others("2")}, {"red": [10, 30, 50, "home"]})
    asked = talk(state, "seven", "red one", "two steps")
    assert isinstance(asked, Ask) and asked.topic is Topic.SECOND
    assert asked.question == "5 steps left: which marble walks them?"
    assert [c.label for c in asked.choices] == ["red 2", "red 3"]


def test_confirmations_and_details_follow_the_detail_setting() -> None:
    # Before: confirmations were always worded briefly, whatever the player chose.
    capture = POSITIONS["own_capture"]  # three on red 1 sends home red 2: always confirmed
    move = next(m for m in legal_moves(capture) if m.phrase == "play three red one")
    full = Resolver(LanguageSettings(brief=False)).resolve(capture, "red", "play three red one")
    brief = Resolver(LanguageSettings(brief=True)).resolve(capture, "red", "play three red one")
    assert isinstance(full, Confirm) and isinstance(brief, Confirm)
    assert full.prompt.startswith(Narrator(Verbosity.FULL).describe_option(capture, move, "red").split(".")[0])
    assert brief.prompt.startswith(BRIEF.describe_option(capture, move, "red").split(".")[0])
    assert full.prompt != brief.prompt


def test_the_list_of_options_is_read_with_its_numbers() -> None:
    mid = POSITIONS["mid"]
    options = _options_question(mid, "red")
    first = options.choices[0].label
    assert options.spoken().startswith(f"Your options. 1: {first} 2: ")
    assert ".." not in options.spoken()


@pytest.mark.parametrize(("position", "said"), [("wall", ("ace", "one")), ("burn_one", ("burn", "two")),
                                                ("seven_safe", ("seven", "red one", "two"))])
def test_every_answer_listened_for_while_asking_which_reading_was_meant_means_something(
        position: str, said: tuple[str, ...]) -> None:
    state = POSITIONS[position]
    resolver = Resolver()
    conversation = Conversation(state.turn, resolver)
    for text in said:
        conversation.hear(state, text)
    asked = conversation.pending
    assert isinstance(asked, Ask) and asked.topic is Topic.MEANING
    for phrase in resolver.phrase_set(state, state.turn, asked).phrases:
        assert not isinstance(resolver.resolve(state, state.turn, phrase, asked), NotUnderstood), phrase


def test_the_sevens_steps_question_says_where_the_first_marble_lands_and_nothing_more() -> None:
    """Issue 11: each answer to "how many steps" tells where that marble would land; the rest is asked next."""
    state = table({"red": ["7", "4"], **others("9")}, {"red": [3, 60, "home", "home"]})
    conversation = Conversation("red")
    assert isinstance(conversation.hear(state, "seven"), Ask)
    steps = conversation.hear(state, "red two")
    assert isinstance(steps, Ask) and steps.topic is Topic.STEPS
    assert steps.spoken() == (
        "How many steps for red 2? 1 step: to cell 61. 2 steps: to cell 62. 3 steps: to cell 63. "
        "4 steps: to cell 64. 5 steps: to cell 65. 6 steps: to cell 66. All 7: to cell 67."
    )


def test_an_option_number_past_a_list_of_one_names_the_only_option() -> None:
    """"say a number from 1 to 1" was said when the list held one move (the guide's first turn: king out)."""
    state = POSITIONS["start"]
    result = resolve(state, "red", "option two", _options_question(state, "red"))
    assert isinstance(result, NotUnderstood) and result.code is NotUnderstoodCode.NO_OPTION
    assert result.reason == "There is no option 2: there is only option 1."
    options = _options_question(POSITIONS["walks"], "red")
    count = len(options.choices)
    longer = resolve(POSITIONS["walks"], "red", f"option {count + 1}", options)
    assert isinstance(longer, NotUnderstood)
    assert longer.reason == f"There is no option {count + 1}: say a number from 1 to {count}."
