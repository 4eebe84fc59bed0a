"""Weighing a hearing against the runner-up sentence (judging.py), through the real pocketsphinx recogniser.

A near tie must be asked about, never acted on; chatter forced onto a command whose runner-up says
something else must not be obeyed; a clearly heard move is still played at once.
"""

from __future__ import annotations

import pytest
from speech_helpers import clip, flite_available, flite_speech, grammar_of, random_positions

from voicejack.engine import Move, legal_moves
from voicejack.hearing import Grammar, Heard
from voicejack.language import Ask, Command, Confirm, NotUnderstood, resolve
from voicejack.language.resolution import CommandName
from voicejack.speech import recognise_samples
from voicejack.speech.corpus import make_clip
from voicejack.speech.judging import Evidence, JudgeSettings, judge
from voicejack.speech.sphinx import SphinxRecogniser


@pytest.fixture(scope="module")
def recogniser() -> SphinxRecogniser:
    return SphinxRecogniser()


def test_two_sentences_that_sound_the_same_come_back_as_a_near_tie(recogniser: SphinxRecogniser) -> None:
    # "read" has the pronunciation of "red" too: both sentences fit the audio equally well.
    grammar = Grammar(("play seven red one", "play seven read one", "play seven green one", "read the board"))
    heard = recognise_samples(clip("play seven red one"), grammar, recogniser)
    assert heard.text in ("play seven red one", "play seven read one")
    other = "play seven read one" if heard.text == "play seven red one" else "play seven red one"
    assert other in heard.alternatives
    evidence = recogniser.last_evidence
    assert evidence is not None and evidence.runner_up == other and abs(evidence.margin) < 0.01


def test_a_clearly_heard_move_has_a_runner_up_well_behind_and_is_played(recogniser: SphinxRecogniser) -> None:
    state = random_positions(1, seed=11)[0]
    move = sorted(legal_moves(state), key=lambda m: m.phrase)[0]
    heard = recognise_samples(clip(move.phrase), grammar_of(state), recogniser)
    evidence = recogniser.last_evidence
    assert heard.text == move.phrase
    assert evidence is not None and evidence.runner_up and evidence.margin > 0.1
    assert resolve(state, state.turn, heard) == move


@pytest.mark.skipif(not flite_available(), reason="flite is not installed (.ci/run installs it)")
def test_a_sentence_that_begins_a_longer_one_is_never_its_own_runner_up(recogniser: SphinxRecogniser) -> None:
    """The runner-up search leaves the heard sentence out, but a path stopping short of a longer sentence can
    still spell it: flite's awb saying "play ace" (which "play ace out" goes on from) came back a near tie with
    itself, so the check never knew pocketsphinx had heard it surely. In a benchmark part that let a split seven
    cut short, "play seven green one five", be carried out as a whole seven by green one instead of being
    confirmed (models/README.md, forty-third round)."""
    grammar = Grammar(("play ace", "play ace out", "play ace red one one", "play eight red one", "help"))
    for stretch in (1.0, 1.2):
        samples = make_clip(flite_speech("play ace", "awb", stretch), None, seed=0, room_level=60.0).samples
        heard = recognise_samples(samples, grammar, recogniser)
        evidence = recogniser.last_evidence
        assert heard.text == "play ace"
        assert evidence is not None and evidence.runner_up != heard.text
        assert heard.text not in heard.alternatives


def test_a_move_heard_in_a_near_tie_is_asked_about_not_played() -> None:
    """Every runner-up counts as a tie here: where it names another move, the game must ask."""
    anxious = SphinxRecogniser(judging=JudgeSettings(tie_margin=100.0))
    asked = 0
    for state in random_positions(3, seed=11):
        moves = sorted(legal_moves(state), key=lambda m: m.phrase)
        for move in moves[:2]:
            heard = recognise_samples(clip(move.phrase), grammar_of(state), anxious)
            result = resolve(state, state.turn, heard)
            runner_up = anxious.last_evidence.runner_up if anxious.last_evidence else ""
            other = resolve(state, state.turn, Heard(runner_up)) if runner_up else None
            if isinstance(other, (Move, Confirm)) and other != result:
                # The runner-up is another move: the game must ask, whatever the words' confidences.
                assert isinstance(result, (Confirm, Ask)), (move.phrase, heard)
                asked += 1
            assert not (isinstance(result, Move) and result != move)
    assert asked >= 2


def test_a_runner_up_that_fits_better_than_the_heard_sentence_is_passed_on() -> None:
    heard = Heard("play ace green one eleven", (0.99,) * 5)
    tie = Evidence(frames=200, best=-500.0, runner_up="play ace green one one", runner_up_score=-499.8)
    judged = judge(heard, tie, JudgeSettings())
    assert judged.text == heard.text and judged.alternatives == ("play ace green one one",)
    clear = Evidence(frames=200, best=-500.0, runner_up="play ace green one one", runner_up_score=-560.0)
    assert judge(heard, clear, JudgeSettings()) == heard


def test_a_command_with_a_runner_up_saying_another_command_is_not_obeyed(recogniser: SphinxRecogniser) -> None:
    """A doubted command gets "didn't catch that", so chatter forced onto it is not carried out."""
    state = random_positions(1, seed=5)[0]
    unsure = resolve(state, state.turn, Heard("read the board", (0.9, 0.9, 0.9), ("my cards",)))
    assert isinstance(unsure, NotUnderstood)
    same = resolve(state, state.turn, Heard("read the board", (0.9, 0.9, 0.9), ("read board",)))
    assert isinstance(same, Command) and same.name is CommandName.BOARD
    # Through the recogniser: a command said plainly is still obeyed.
    heard = recognise_samples(clip("read the board"), grammar_of(state), recogniser)
    assert isinstance(resolve(state, state.turn, heard), Command)


def test_table_chatter_is_not_carried_out(recogniser: SphinxRecogniser) -> None:
    state = random_positions(1, seed=9)[0]
    for seed, text in enumerate(("pass me the salt please", "what a lovely day", "wait let me think about it",
                                 "is it my turn yet")):
        heard = recognise_samples(clip(text, seed=seed), grammar_of(state), recogniser)
        assert not isinstance(resolve(state, state.turn, heard), (Move, Command)), (text, heard)
