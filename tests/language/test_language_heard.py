"""Confidences, n-best alternatives, confirmation settings and the pending-question bookkeeping."""

from __future__ import annotations

from lang_positions import POSITIONS

from voicejack.engine import Move, legal_moves
from voicejack.language import (
    Ask,
    Command,
    Confirm,
    ConfirmPolicy,
    Conversation,
    Heard,
    LanguageSettings,
    NotUnderstood,
    NotUnderstoodCode,
    Resolver,
    resolve,
)

MID = POSITIONS["mid"]  # red 1 on 10, red 2 on 30 (nine sends home partner green 1); 9 7 A J


def phrase_of(result: object) -> str:
    if isinstance(result, Move):
        return f"move {result.phrase}"
    if isinstance(result, Confirm):
        return f"confirm {result.phrase}"
    if isinstance(result, Ask):
        return "ask " + "|".join(c.label for c in result.choices)
    if isinstance(result, Command):
        return f"command {result}"
    assert isinstance(result, NotUnderstood)
    return f"no {result.code}"


# --- per-word confidence -------------------------------------------------------


def test_confident_words_play_at_once() -> None:
    assert phrase_of(resolve(MID, "red", Heard("play nine red one", (0.95, 0.9, 0.99, 0.97)))) == "move play nine red one"


def test_one_doubtful_meaning_word_asks_for_confirmation() -> None:
    assert phrase_of(resolve(MID, "red", Heard("play nine red one", (0.95, 0.9, 0.45, 0.97)))) == "confirm play nine red one"


def test_doubtful_fillers_do_not_matter() -> None:
    heard = Heard("um play nine red one please", (0.1, 0.2, 0.9, 0.95, 0.9, 0.3))
    assert phrase_of(resolve(MID, "red", heard)) == "move play nine red one"


def test_all_words_doubtful_is_not_understood() -> None:
    result = resolve(MID, "red", Heard("play nine red one", (0.2, 0.2, 0.25, 0.1)))
    assert isinstance(result, NotUnderstood) and result.code == "unclear" and not result.refused


def test_confidences_that_do_not_line_up_with_the_words_are_ignored() -> None:
    assert phrase_of(resolve(MID, "red", Heard("play nine red one", (0.1,)))) == "move play nine red one"


def test_a_doubtful_answer_to_a_question_is_confirmed() -> None:
    asked = resolve(MID, "red", Heard("nine"))
    assert isinstance(asked, Ask)
    assert phrase_of(resolve(MID, "red", Heard("one", (0.5,)), asked)) == "confirm play nine red one"
    assert phrase_of(resolve(MID, "red", Heard("one", (0.9,)), asked)) == "move play nine red one"


def test_a_doubtful_command_is_still_carried_out() -> None:
    assert phrase_of(resolve(MID, "red", Heard("read the board", (0.5, 0.9, 0.5)))) == "command board"


def test_a_command_the_recogniser_doubts_is_asked_about_and_carried_out_on_yes() -> None:
    """Issue 12: a second pass that doubts a command asks "did you say ...?" rather than "didn't catch that"."""
    conversation = Conversation("red")
    asked = conversation.hear(MID, Heard("where is green two", (0.5,) * 4, doubted=True))
    assert isinstance(asked, Confirm) and asked.prompt == "Did you say where is green two? Yes or no."
    answer = conversation.hear(MID, Heard("yes", (0.9,)))
    assert isinstance(answer, Command) and str(answer) == "where green 2"
    assert conversation.pending is None


def test_no_to_a_doubted_command_drops_it() -> None:
    conversation = Conversation("red")
    assert isinstance(conversation.hear(MID, Heard("read the board", (0.5,) * 3, doubted=True)), Confirm)
    answer = conversation.hear(MID, Heard("no", (0.9,)))
    assert isinstance(answer, Command) and answer.name == "no" and conversation.pending is None


def test_a_doubted_answer_is_said_again_not_asked_about() -> None:
    """ "Did you say yes?" would only ask the same question twice: a doubted yes, no or cancel is refused."""
    confirm = resolve(MID, "red", Heard("play nine red one", (0.95, 0.9, 0.45, 0.97)))
    assert isinstance(confirm, Confirm)
    for said in ("yes", "no", "cancel", "take that back"):
        result = resolve(MID, "red", Heard(said, (0.5,) * len(said.split()), doubted=True), confirm)
        assert isinstance(result, NotUnderstood) and result.code == NotUnderstoodCode.UNCLEAR, said


def test_a_doubted_quit_asks_its_own_question() -> None:
    result = resolve(MID, "red", Heard("quit game", (0.5, 0.5), doubted=True))
    assert isinstance(result, Confirm) and result.prompt == "Quit the match, yes or no?"


def test_a_doubted_move_is_confirmed() -> None:
    result = resolve(MID, "red", Heard("play nine red one", (0.95,) * 4, doubted=True))
    assert phrase_of(result) == "confirm play nine red one"


# --- n-best alternatives -----------------------------------------------------------


def test_an_alternative_naming_another_move_turns_a_play_into_a_confirmation() -> None:
    heard = Heard("play nine red one", alternatives=("play nine red two",))
    assert phrase_of(resolve(MID, "red", heard)) == "confirm play nine red one"


def test_alternatives_that_agree_or_are_not_moves_change_nothing() -> None:
    heard = Heard("play nine red one", alternatives=("play nine red one", "nine red one", "read the board"))
    assert phrase_of(resolve(MID, "red", heard)) == "move play nine red one"


def test_a_blurred_best_text_and_an_exact_alternative_for_another_move_are_asked_about() -> None:
    heard = Heard("play nine bed one", alternatives=("play nine red two",))
    assert phrase_of(resolve(MID, "red", heard)) == "ask red 1|red 2"


def test_an_alternative_can_rescue_a_best_text_that_means_nothing() -> None:
    heard = Heard("banana", alternatives=("play nine red one",))
    assert phrase_of(resolve(MID, "red", heard)) == "confirm play nine red one"


def test_without_alternatives_the_blurred_text_is_confirmed() -> None:
    assert phrase_of(resolve(MID, "red", Heard("play nine bed one"))) == "confirm play nine red one"


# --- settings ---------------------------------------------------------------------


def test_always_confirms_even_an_exact_move() -> None:
    resolver = Resolver(LanguageSettings(confirm=ConfirmPolicy.ALWAYS))
    assert phrase_of(resolver.resolve(MID, "red", "play nine red one")) == "confirm play nine red one"
    assert phrase_of(resolver.resolve(MID, "red", "board")) == "command board"


def test_never_plays_a_clear_but_inexact_match_at_once() -> None:
    resolver = Resolver(LanguageSettings(confirm=ConfirmPolicy.NEVER))
    assert phrase_of(resolver.resolve(MID, "red", "play nine bed one")) == "move play nine red one"
    assert phrase_of(resolver.resolve(MID, "red", Heard("play nine red one", (0.9, 0.4, 0.9, 0.9)))) == "move play nine red one"


def test_never_still_asks_between_moves_and_refuses_illegal_ones() -> None:
    resolver = Resolver(LanguageSettings(confirm=ConfirmPolicy.NEVER))
    assert phrase_of(resolver.resolve(MID, "red", "nine red")) == "ask red 1|red 2"
    assert phrase_of(resolver.resolve(MID, "red", "play nine red four")) == "no illegal"


def test_sending_home_your_own_or_your_partners_marble_is_confirmed_whatever_the_policy() -> None:
    own = POSITIONS["own_capture"]
    for policy in ConfirmPolicy:
        resolver = Resolver(LanguageSettings(confirm=policy))
        assert phrase_of(resolver.resolve(own, "red", "play three red one")) == "confirm play three red one"
        assert phrase_of(resolver.resolve(MID, "red", "play nine red two")) == "confirm play nine red two"
    quick = Resolver(LanguageSettings(confirm=ConfirmPolicy.NEVER, confirm_own_captures=False))
    assert phrase_of(quick.resolve(own, "red", "play three red one")) == "move play three red one"


def test_quit_and_leave_are_always_confirmed() -> None:
    for policy in ConfirmPolicy:
        resolver = Resolver(LanguageSettings(confirm=policy))
        for word in ("quit", "leave"):
            result = resolver.resolve(MID, "blue", word)
            assert isinstance(result, Confirm) and result.move == Command(word)
            assert resolver.resolve(MID, "blue", "yes", result) == Command(word)


def test_capturing_an_opponent_is_not_confirmed() -> None:
    wall = POSITIONS["wall"]  # ace one lands on blue's exposed back marble
    assert phrase_of(resolve(wall, "red", "play ace red one one")) == "move play ace red one one"


def test_the_confirmation_prompt_uses_the_given_description() -> None:
    resolver = Resolver(describe=lambda state, move, listener: f"the {move.card} for {listener}")
    result = resolver.resolve(MID, "red", "play nine red two")
    assert isinstance(result, Confirm) and result.prompt == "the 9 for red, yes or no?"


def test_the_default_prompt_tells_whose_marble_goes_home() -> None:
    result = resolve(POSITIONS["own_capture"], "red", "play three red one")
    assert isinstance(result, Confirm)
    assert "your own red 2" in result.prompt and result.prompt.endswith("Yes or no?")


# --- the pending question -------------------------------------------------------------


def test_a_question_about_another_position_is_forgotten() -> None:
    asked = resolve(MID, "red", "nine")
    assert isinstance(asked, Ask)
    walks = POSITIONS["walks"]  # red holds no nine here
    result = resolve(walks, "red", "option one", asked)
    assert isinstance(result, NotUnderstood)
    assert phrase_of(resolve(walks, "red", "red one", asked)) == "ask two|four|queen"


def test_a_confirmation_of_a_move_no_longer_legal_is_forgotten() -> None:
    pending = Confirm(next(m for m in legal_moves(MID) if m.phrase == "play nine red two"), "?")
    assert resolve(POSITIONS["walks"], "red", "yes", pending) == Command("yes")


def test_a_card_named_alone_by_voice_is_confirmed_even_where_it_has_one_move() -> None:
    """Issue 12, thirty-sixth round: "ace" and "eight" differ only in their last sound, and a reverberant room
    smears it. On the benchmark's card-first part "play ace" (a question: the ace has several moves) was heard
    as "play eight" and, the eight having one move, that move was played. A card named alone by voice is now
    confirmed; typed, it is played as the player's guide says, and the move said in full is played at once."""
    start = POSITIONS["start"]  # all home, king 6 4 9: only the king can bring a marble out
    king_out = next(m for m in legal_moves(start) if m.phrase == "play king out")
    for words in ("play king", "king", "play the king"):
        heard = resolve(start, "red", Heard(words, tuple(0.95 for _ in words.split())))
        assert isinstance(heard, Confirm) and heard.move == king_out, words
        assert resolve(start, "red", words) == king_out, words
    assert resolve(start, "red", Heard("play king out", (0.95, 0.95, 0.95))) == king_out
    assert resolve(start, "red", Heard("king out", (0.95, 0.95))) == king_out
    several = resolve(MID, "red", Heard("play ace", (0.95, 0.95)))
    assert isinstance(several, Ask)  # a card with several moves still asks which


def test_a_move_said_while_a_yes_or_no_is_awaited_is_asked_about_not_played() -> None:
    """Issue 12: table talk said while the game asks "is that right?" was heard as a move of its own and played
    ("nice one" as "ace one"). A spoken move other than the one asked about is now confirmed first; the same
    move said again counts as the yes it means, and typed input is taken as typed."""
    pending = Confirm(next(m for m in legal_moves(MID) if m.phrase == "play seven red two"), "?")
    sure = (0.95, 0.95, 0.95, 0.95)
    other = resolve(MID, "red", Heard("play nine red one", sure), pending)
    assert isinstance(other, Confirm) and other.phrase == "play nine red one"
    assert resolve(MID, "red", "play nine red one", pending) == next(
        m for m in legal_moves(MID) if m.phrase == "play nine red one")
    assert resolve(MID, "red", Heard("play seven red two", sure), pending) == pending.move
    assert resolve(MID, "red", Heard("yes", (0.95,)), pending) == pending.move
    assert resolve(MID, "red", Heard("play nine red one", sure)) == resolve(MID, "red", "play nine red one")


def test_a_move_said_while_quitting_is_asked_about_is_confirmed_too() -> None:
    asked = resolve(MID, "red", "quit")
    assert isinstance(asked, Confirm)
    heard = resolve(MID, "red", Heard("play nine red one", (0.95, 0.95, 0.95, 0.95)), asked)
    assert isinstance(heard, Confirm) and heard.phrase == "play nine red one"


def test_the_conversation_keeps_the_question_until_it_is_answered_or_cancelled() -> None:
    talk = Conversation("red")
    assert isinstance(talk.hear(MID, "seven"), Ask)
    assert isinstance(talk.hear(MID, "banana"), NotUnderstood) and isinstance(talk.pending, Ask)
    assert talk.hear(MID, "whose turn") == Command("turn") and isinstance(talk.pending, Ask)
    assert isinstance(talk.hear(MID, "red two"), Ask)
    assert talk.hear(MID, "cancel") == Command("cancel") and talk.pending is None
    assert isinstance(talk.hear(MID, "seven"), Ask)
    move = talk.hear(MID, "play nine red one")
    assert isinstance(move, Move) and talk.pending is None
    assert isinstance(talk.hear(MID, "play nine red two"), Confirm)
    assert talk.hear(MID, "no") == Command("no") and talk.pending is None
    assert isinstance(talk.hear(MID, "quit"), Confirm)
    assert talk.hear(MID, "yes") == Command("quit") and talk.pending is None


def test_resolving_leaves_the_state_untouched() -> None:
    state = POSITIONS["mid"]
    before = (list(state.marbles), {c: list(h) for c, h in state.hands.items()}, state.turn, state.rng.getstate())
    for text in ("play nine red two", "seven", "jack red one blue one", "burn nine", "quit"):
        resolve(state, "red", text)
    assert (state.marbles, state.hands, state.turn, state.rng.getstate()) == before


def test_speech_the_recogniser_turned_down_is_not_caught_rather_than_nothing() -> None:
    """A spoken result with no words (pocketsphinx rejected its weak reading) is something the player said:
    "I didn't hear anything" (as `voicejack hear --wav` printed) wrongly blamed the microphone."""
    for heard in (Heard("", (), ("play nine red one",)), Heard("")):
        result = resolve(POSITIONS["mid"], "red", heard)
        assert isinstance(result, NotUnderstood) and result.code is NotUnderstoodCode.EMPTY and not result.refused
        assert result.reason == "I didn't catch that."
    typed = resolve(POSITIONS["mid"], "red", Heard("", typed=True))
    assert isinstance(typed, NotUnderstood) and typed.reason == "I didn't hear anything."
