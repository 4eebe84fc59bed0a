"""The first words of a match: a player who answers the game's first prompt at once is heard (issue 12).

The endpointer learns the room's noise floor during its first 0.3 s; the microphone is muted while the
game speaks on loudspeakers and for an echo guard after it. The first prompt therefore used to leave it
no room to learn from, and a move said within half a second of it was never heard.
Through the real VoiceInput, Listener and pocketsphinx, with espeak-ng speech.
"""

from __future__ import annotations

import numpy as np
from first_words import SPEECH_RMS, answers_first_prompt, cases, in_room
from speech_helpers import grammar_of

from voicejack.hearing import Heard
from voicejack.language import resolve
from voicejack.speech.audio import BLOCK_SAMPLES, SAMPLE_RATE, blocks
from voicejack.speech.endpoint import Endpointer, Mark
from voicejack.speech.microphone import BlockQueue, VoiceInput
from voicejack.speech.sphinx import SphinxRecogniser


def test_a_move_said_at_once_after_the_first_prompt_is_heard() -> None:
    """0.05 and 0.1 s after the echo guard that follows the game's first prompt, in quiet and in 20 dB noise."""
    recogniser = SphinxRecogniser()
    for condition in ("quiet", "20 dB"):
        for room in (0.05, 0.1):
            for seed, (state, move) in enumerate(cases(3)):
                assert answers_first_prompt(recogniser, state, move, condition, room, seed), (condition, room, move)


def test_the_room_before_the_first_grammar_teaches_the_floor() -> None:
    """With headphones nothing is muted: the room heard before the game first listens is learnt, so a move
    said 0.05 s after the first grammar arrives is heard from its first word."""
    recogniser = SphinxRecogniser()
    for seed, (state, move) in enumerate(cases(2, seed=7)):
        before = int(0.6 * SAMPLE_RATE)
        samples, _ = in_room(move.phrase, "20 dB", 0.6 + 0.05, seed)
        voice = VoiceInput(recogniser, source=BlockQueue(), headphones=True)
        recogniser.new_stream()
        heard: Heard | None = None
        for position, block in zip(range(0, len(samples), BLOCK_SAMPLES), blocks(samples, BLOCK_SAMPLES)):
            if position == before:
                voice.set_grammar(grammar_of(state))
            result = voice.hear_block(block)
            if result is not None:
                heard = result[0]
                break
        heard = heard or recogniser.finish()
        recogniser.reset()
        assert heard is not None and resolve(state, state.turn, heard) == move


def tone_after(silence: float, seconds: float = 0.8) -> np.ndarray:
    """Room tone, then a steady loud tone (a sound that starts up) ``silence`` seconds in."""
    rng = np.random.default_rng(1)
    t = np.arange(int((silence + seconds) * SAMPLE_RATE)) / SAMPLE_RATE
    signal = rng.standard_normal(len(t)) * 30.0
    signal[t >= silence] += np.sin(2 * np.pi * 220 * t[t >= silence]) * SPEECH_RMS
    return np.round(signal).astype(np.int16)


def first_start(endpointer: Endpointer, samples: np.ndarray) -> float | None:
    for block in blocks(samples, BLOCK_SAMPLES):
        for event in endpointer.push(block):
            if event.mark is Mark.START:
                return event.sample / SAMPLE_RATE
    return None


def test_an_expected_answer_starts_while_the_floor_is_learnt() -> None:
    endpointer = Endpointer()
    endpointer.expect_answer()
    start = first_start(endpointer, tone_after(0.05))
    assert start is not None and start <= 0.05


def test_a_sound_starting_up_with_a_stream_is_still_learnt_as_the_room() -> None:
    """Files and the benchmark start a stream with nothing asked: music starting up there is the room,
    as before (taking it for speech cost the benchmark's music room a fifth of its answers)."""
    assert first_start(Endpointer(), tone_after(0.05)) is None
