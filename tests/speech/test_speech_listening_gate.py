"""The listening gate's rules, utterance by utterance (no audio: Heard values as a recogniser gives them).

The same rules heard through pocketsphinx are in test_speech_listening.py.
"""

from __future__ import annotations

import pytest

from voicejack.hearing import Grammar, Heard
from voicejack.speech.audio import SAMPLE_RATE
from voicejack.speech.listening import (
    LOOSEST,
    STRICTEST,
    GateEvent,
    ListeningGate,
    ListenMode,
    WakeWord,
    WakeWordError,
)

GRAMMAR = Grammar(("read the board", "play seven red one five", "start listening", "stop listening"))
BLOCK = 320


def gate(mode: ListenMode, sensitivity: float = 0.5, **options) -> tuple[ListeningGate, list[GateEvent]]:
    events: list[GateEvent] = []
    made = ListeningGate(mode, WakeWord("jackaroo", sensitivity), ("start listening",), on_event=events.append,
                         **options)
    return made, events


def utterance(gate: ListeningGate, heard: Heard, blocks: int = 20) -> Heard | None:
    """An utterance as the listening thread sees it: blocks while it is spoken, then its result."""
    gate.advance(BLOCK, False)
    for _ in range(blocks):
        gate.advance(BLOCK, True)
    admitted = gate.admit(heard)
    gate.advance(BLOCK, False)
    return admitted


def silence(gate: ListeningGate, seconds: float) -> None:
    for _ in range(round(seconds * SAMPLE_RATE / BLOCK)):
        gate.advance(BLOCK, False)


def test_open_mode_lets_everything_through_as_it_was_heard() -> None:
    open_gate, events = gate(ListenMode.OPEN)
    heard = Heard("read the board", (0.9, 0.9, 0.9))
    assert utterance(open_gate, heard) is heard
    assert utterance(open_gate, Heard("")) == Heard("")  # "didn't catch that" is still said
    assert open_gate.listened_grammar(GRAMMAR) is GRAMMAR and events == []


def test_wake_mode_listens_for_every_sentence_with_and_without_the_wake_word() -> None:
    wake_gate, _ = gate(ListenMode.WAKE)
    listened = wake_gate.listened_grammar(GRAMMAR)
    starts = {"jackaroo read", "jackaroo play", "jackaroo start", "jackaroo stop"}
    assert set(listened.phrases) == {*GRAMMAR.phrases, *(f"jackaroo {p}" for p in GRAMMAR.phrases), "jackaroo",
                                     *starts}
    assert wake_gate.game_grammar(listened) is GRAMMAR  # results carry the game's grammar, for the staleness check


def test_in_wake_mode_the_commands_stay_commands_with_the_wake_word_in_front() -> None:
    """A recogniser checks the game's commands and the moves it would refuse harder (Grammar.obeyed,
    Grammar.refused) and may ask about a doubted command (Grammar.confirmed); after the wake word they are
    still all that. (Before, a doubted "jackaroo, read the board" was refused where it was asked about
    without the wake word.)"""
    wake_gate, _ = gate(ListenMode.WAKE)
    refused = "play seven red one five"
    complete = "play seven red one"
    listened = wake_gate.listened_grammar(Grammar(GRAMMAR.phrases, frozenset({"read the board"}),
                                                  frozenset({"read the board"}), frozenset({refused}),
                                                  frozenset({complete}), frozenset({"read the board"}),
                                                  (frozenset({"yes", "yeah"}), frozenset({"no"}))))
    assert listened.obeyed == listened.confirmed == {"read the board", "jackaroo read the board"}
    assert listened.read_out == {"read the board", "jackaroo read the board"}
    assert listened.refused == {refused, f"jackaroo {refused}"}
    assert listened.complete == {complete, f"jackaroo {complete}"}  # may end early after the wake word too
    # "jackaroo yes" and "yeah" are one answer (Grammar.answers)
    assert listened.answers == ({"yes", "yeah", "jackaroo yes", "jackaroo yeah"}, {"no", "jackaroo no"})


def test_the_wake_word_then_only_the_start_of_a_sentence_is_the_wake_word_alone() -> None:
    """Among other talkers, "jackaroo" and what followed came out as "jackaroo read": the player said the wake
    word, so the seconds for the command open; the half-sentence is never acted on."""
    wake_gate, events = gate(ListenMode.WAKE)
    listened = wake_gate.listened_grammar(GRAMMAR)
    assert wake_gate.admit(Heard("jackaroo read", (0.9, 0.4)), listened) is None
    assert events == [GateEvent.WOKE]


def test_words_far_quieter_than_the_wake_word_after_it_are_the_room() -> None:
    """Said alone among other talkers, "jackaroo" came out as "jackaroo no", the "no" 10-17 dB below the
    wake word: that is the wake word alone, and "no" is never answered."""
    wake_gate, events = gate(ListenMode.WAKE)
    listened = wake_gate.listened_grammar(Grammar((*GRAMMAR.phrases, "no")))
    assert wake_gate.admit(Heard("jackaroo no", (0.99, 0.99), word_levels=(0.0, -12.0)), listened) is None
    assert events == [GateEvent.WOKE]
    said = wake_gate.admit(Heard("jackaroo no", (0.99, 0.99), word_levels=(0.0, -4.0)), listened)
    assert said is not None and said.text == "no"  # "jackaroo, no" in one breath: the player's own "no"


def test_the_wake_word_alone_as_a_near_tie_is_the_wake_word_alone() -> None:
    """The judging found the wake word alone fitting about as well as "jackaroo no" (it is among the
    alternatives): the seconds for the command open, and nothing is answered."""
    wake_gate, events = gate(ListenMode.WAKE)
    listened = wake_gate.listened_grammar(Grammar((*GRAMMAR.phrases, "no")))
    assert wake_gate.admit(Heard("jackaroo no", (0.99, 0.99), ("jackaroo",)), listened) is None
    assert events == [GateEvent.WOKE]


def test_the_wake_word_is_taken_off_and_the_command_goes_through() -> None:
    wake_gate, events = gate(ListenMode.WAKE)
    heard = Heard("jackaroo read the board", (0.8, 0.9, 0.9, 0.9), ("jackaroo play seven red one five",))
    assert utterance(wake_gate, heard) == Heard("read the board", (0.9, 0.9, 0.9), ("play seven red one five",))
    assert events == []


def test_speech_without_the_wake_word_is_ignored_silently() -> None:
    wake_gate, events = gate(ListenMode.WAKE)
    assert utterance(wake_gate, Heard("read the board", (0.99, 0.99, 0.99))) is None
    assert utterance(wake_gate, Heard("")) is None  # not even "didn't catch that"
    assert events == []


@pytest.mark.parametrize("sensitivity,taken", [(0.0, False), (0.5, False), (0.8, True), (1.0, True)])
def test_the_sensitivity_sets_how_sure_the_wake_word_must_be(sensitivity: float, taken: bool) -> None:
    wake_gate, _ = gate(ListenMode.WAKE, sensitivity)
    heard = Heard("jackaroo read the board", (0.1, 0.9, 0.9, 0.9))
    assert (utterance(wake_gate, heard) is not None) is taken


def test_the_sensitivity_scale_runs_from_strict_to_loose() -> None:
    assert WakeWord(sensitivity=0.0).needed_confidence == STRICTEST
    assert WakeWord(sensitivity=1.0).needed_confidence == LOOSEST
    assert STRICTEST > WakeWord().needed_confidence > LOOSEST


def test_the_wake_word_alone_opens_a_few_seconds_for_the_command() -> None:
    wake_gate, events = gate(ListenMode.WAKE, wake_window=2.0)
    assert utterance(wake_gate, Heard("jackaroo", (0.9,))) is None
    assert events == [GateEvent.WOKE]
    silence(wake_gate, 1.0)
    assert utterance(wake_gate, Heard("read the board", (0.9, 0.9, 0.9))) == Heard("read the board", (0.9, 0.9, 0.9))
    assert utterance(wake_gate, Heard("read the board", (0.9, 0.9, 0.9))) is None  # one command per wake word


def test_after_the_wake_word_alone_a_command_not_caught_is_said_to_be_missed() -> None:
    wake_gate, _ = gate(ListenMode.WAKE)
    utterance(wake_gate, Heard("jackaroo", (0.9,)))
    assert utterance(wake_gate, Heard("")) == Heard("")  # the player is speaking to the game: "didn't catch that"


def test_the_seconds_after_the_wake_word_run_out_and_the_player_is_told() -> None:
    wake_gate, events = gate(ListenMode.WAKE, wake_window=2.0)
    utterance(wake_gate, Heard("jackaroo", (0.9,)))
    silence(wake_gate, 2.1)
    assert events == [GateEvent.WOKE, GateEvent.TIMED_OUT]
    assert utterance(wake_gate, Heard("read the board", (0.9, 0.9, 0.9))) is None


def test_a_command_begun_in_time_is_heard_however_long_it_lasts() -> None:
    wake_gate, _ = gate(ListenMode.WAKE, wake_window=0.5)
    utterance(wake_gate, Heard("jackaroo", (0.9,)))
    assert utterance(wake_gate, Heard("play seven red one five"), blocks=200) is not None  # 4 s of speech


def test_push_to_talk_lets_one_utterance_through_and_closes() -> None:
    push_gate, events = gate(ListenMode.PUSH)
    assert utterance(push_gate, Heard("read the board")) is None  # the microphone is closed
    assert push_gate.push_to_talk()
    assert events == [GateEvent.OPENED] and push_gate.waiting_for_command
    assert utterance(push_gate, Heard("read the board")) == Heard("read the board")
    assert events == [GateEvent.OPENED, GateEvent.CLOSED] and not push_gate.waiting_for_command
    assert utterance(push_gate, Heard("read the board")) is None


def test_push_to_talk_closes_after_seconds_of_silence() -> None:
    push_gate, events = gate(ListenMode.PUSH, push_window=1.0)
    push_gate.push_to_talk()
    silence(push_gate, 1.1)
    assert events == [GateEvent.OPENED, GateEvent.TIMED_OUT]
    assert utterance(push_gate, Heard("read the board")) is None


def test_an_utterance_already_under_way_when_the_key_is_pressed_is_not_let_through() -> None:
    """Someone else was talking when the player pressed the key: that talk is not theirs."""
    push_gate, _ = gate(ListenMode.PUSH)
    push_gate.advance(BLOCK, True)
    push_gate.push_to_talk()
    push_gate.advance(BLOCK, True)
    assert push_gate.admit(Heard("read the board")) is None
    push_gate.advance(BLOCK, False)
    assert utterance(push_gate, Heard("my cards")) == Heard("my cards")  # the window was still open


def test_the_key_does_nothing_outside_push_mode() -> None:
    for mode in (ListenMode.OPEN, ListenMode.WAKE):
        other, events = gate(mode)
        assert not other.push_to_talk() and events == []


@pytest.mark.parametrize("mode", list(ListenMode))
def test_paused_only_a_sure_start_listening_gets_through(mode: ListenMode) -> None:
    paused, _ = gate(mode)
    assert paused.pause() and not paused.pause()
    prefix = "jackaroo " if mode is ListenMode.WAKE else ""
    extra = (0.9,) if mode is ListenMode.WAKE else ()

    def said(text: str, confidence: float) -> Heard | None:
        if mode is ListenMode.PUSH:
            paused.push_to_talk()
        words = f"{prefix}{text}".split()
        return utterance(paused, Heard(" ".join(words), extra + (confidence,) * len(text.split())))

    assert said("read the board", 0.95) is None
    assert said("start listening", 0.3) is None  # chatter forced onto the phrase comes out unsure
    assert said("start listening", 0.9) == Heard("start listening", (0.9, 0.9))
    assert paused.paused  # the table resumes it, when it has told the player
    assert paused.resume() and not paused.resume()


def test_a_wake_word_of_several_words_and_as_a_player_types_it() -> None:
    wake = WakeWord.of("  Hey, Game ")
    assert wake.word == "hey game"
    several = ListeningGate(ListenMode.WAKE, wake)
    assert several.admit(Heard("hey game read the board", (0.9,) * 5)) == Heard("read the board", (0.9,) * 3)
    assert several.admit(Heard("hey read the board", (0.9,) * 4)) is None


@pytest.mark.parametrize("word,sensitivity", [("", 0.5), ("jack4roo", 0.5), ("jackaroo", 1.5), ("jackaroo", -0.1)])
def test_a_wake_word_that_cannot_be_is_refused(word: str, sensitivity: float) -> None:
    with pytest.raises(WakeWordError):
        WakeWord(word, sensitivity)


def test_a_recogniser_without_the_wake_word_hears_it_spelled_as_words_it_knows() -> None:
    """A vosk model's vocabulary has no "jackaroo": the gate listens for sound-alike words it has."""
    vocabulary = {"jack", "a", "roo", "read", "the", "board"}
    spelled = ListeningGate(ListenMode.WAKE, WakeWord(), knows=vocabulary.__contains__)
    assert spelled.wake_words == ("jack", "a", "roo")
    assert "jack a roo read the board" in spelled.listened_grammar(Grammar(("read the board",))).phrases
    assert spelled.admit(Heard("jack a roo read the board", (0.9,) * 6)) == Heard("read the board", (0.9,) * 3)
    with pytest.raises(WakeWordError, match="does not know the word 'jackaroo'"):
        ListeningGate(ListenMode.WAKE, WakeWord(), knows={"read"}.__contains__)
    with pytest.raises(WakeWordError, match="'blorp'"):
        ListeningGate(ListenMode.WAKE, WakeWord("blorp"), knows=vocabulary.__contains__)
