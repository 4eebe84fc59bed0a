"""Ending an utterance early (recogniser.py): which pauses are offered to the backend, and on what terms.

The backend here hears nothing; it only records what each offer asked of it, so these tests pin down the
rule that decides by the speech's level over the room, whatever a recogniser would make of the audio.
"""

from __future__ import annotations

import numpy as np
import pytest

from voicejack.hearing import Grammar, Heard
from voicejack.speech.audio import SAMPLE_RATE
from voicejack.speech.recogniser import StreamingRecogniser


class Offers(StreamingRecogniser):
    """A backend that records each early-end offer as (only its own check may end it, may end it unsure)."""

    name = "offers"

    def __init__(self) -> None:
        super().__init__()
        self.offers: list[tuple[bool, bool]] = []

    def _apply_grammar(self, grammar: Grammar) -> None:
        self._grammar = grammar

    def _start_utterance(self) -> None:
        pass

    def _feed(self, audio: np.ndarray) -> None:
        pass

    def _end_utterance(self) -> Heard:
        return Heard("")

    def _abort_utterance(self) -> None:
        pass

    def _early_result(self, checked_only: bool = False, confirm: bool = False) -> Heard | None:
        self.offers.append((checked_only, confirm))
        return None


def _two_words_with_a_pause(over_floor_db: float, pause: float = 0.3) -> np.ndarray:
    """Room noise, a 'word' (a tone) ``over_floor_db`` above it, a pause, another word, then the room again."""
    rng = np.random.default_rng(0)
    floor_rms = 30.0
    word = np.sin(2 * np.pi * 220 * np.arange(int(0.5 * SAMPLE_RATE)) / SAMPLE_RATE)
    word *= floor_rms * 10 ** (over_floor_db / 20) * np.sqrt(2)
    gap = np.zeros(int(pause * SAMPLE_RATE))
    lead, tail = np.zeros(SAMPLE_RATE), np.zeros(SAMPLE_RATE)
    signal = np.concatenate([lead, word, gap, word, tail])
    signal += rng.standard_normal(len(signal)) * floor_rms
    return np.round(signal).astype(np.int16)


def _offers(over_floor_db: float, confirms_sure: bool, confirms: bool = True) -> list[tuple[bool, bool]]:
    recogniser = Offers()
    recogniser.confirms_early = recogniser.confirms_unsure_early = confirms
    recogniser.confirms_sure_early = confirms_sure
    recogniser.set_grammar(Grammar(("what can i say", "last card")))
    samples = _two_words_with_a_pause(over_floor_db)
    for start in range(0, len(samples), 1600):
        recogniser.accept(samples[start:start + 1600])
    return recogniser.offers


@pytest.mark.parametrize("confirms_sure", [False, True])
def test_in_noise_a_backend_that_checks_sure_sentences_is_the_only_one_to_end_them(confirms_sure: bool) -> None:
    """Issue 12, twenty-fifth round: 22 dB over the room (white noise at 20 dB, the reverberant room, music) a
    pause inside the player's sentence ("what ... can i say") ended it wherever pocketsphinx was sure of a
    sentence so far ('last card'). A backend that can check the sentence itself now ends it only by that check."""
    offers = _offers(22.0, confirms_sure)
    assert offers and all(offer == (confirms_sure, True) for offer in offers)


def test_in_a_quiet_room_a_sure_sentence_still_ends_the_utterance_without_a_check() -> None:
    """Well over the room, pocketsphinx's own confidence is trusted at a pause, as before (latency in quiet)."""
    offers = _offers(35.0, confirms_sure=True)
    assert offers and all(offer == (False, True) for offer in offers)


def test_close_to_the_room_only_a_checking_backend_is_asked_at_all() -> None:
    """Under 16 dB (other talkers close by) pocketsphinx's confidence means nothing: a backend that cannot
    check is never offered the pause, one that can is asked to check."""
    assert _offers(12.0, confirms_sure=False, confirms=False) == []
    offers = _offers(12.0, confirms_sure=False)
    assert offers and all(offer == (True, True) for offer in offers)


def test_an_early_end_never_settles_on_a_sentence_that_a_longer_one_continues(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12, thirty-third round: at a pause pocketsphinx heard a sentence nothing longer continues, but
    judging (or the check) settled on "play seven blue two", the first half of a split: a fresh held-out part
    played it a second before the player had said "five blue one two". The utterance goes on instead."""
    from voicejack.speech.sphinx import SphinxRecogniser

    recogniser = SphinxRecogniser()
    recogniser.set_grammar(Grammar(("play seven blue two", "play seven blue two five blue one two", "burn hand")))
    heard = Heard("burn hand", (0.9, 0.9))
    monkeypatch.setattr(recogniser, "_decode", lambda audio: heard)
    monkeypatch.setattr(recogniser, "_judged", lambda audio, said: Heard("play seven blue two", (0.9,) * 4))
    recogniser._buffer = [np.zeros(SAMPLE_RATE, dtype=np.int16)]
    assert recogniser._early_result() is None
    monkeypatch.setattr(recogniser, "_judged", lambda audio, said: said)
    recogniser._buffer = [np.zeros(SAMPLE_RATE, dtype=np.int16)]
    assert recogniser._early_result() == heard
