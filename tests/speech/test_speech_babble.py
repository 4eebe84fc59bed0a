"""Hearing a player through other people talking: the end of speech is found while the others go on.

Three other talkers (espeak-ng voices saying table talk, with short pauses) together 15 dB below the
player, as in benchmarks/asr.py's babble room.
"""

from __future__ import annotations

import numpy as np
from speech_helpers import grammar_of, random_positions, speech

from voicejack.engine import legal_moves
from voicejack.hearing import Grammar, Heard
from voicejack.language import resolve
from voicejack.speech.audio import BLOCK_SAMPLES, SAMPLE_RATE, blocks
from voicejack.speech.corpus import speech_power
from voicejack.speech.endpoint import Endpointer, EndpointSettings, Mark
from voicejack.speech.recogniser import StreamingRecogniser
from voicejack.speech.sphinx import SphinxRecogniser

TALK = ("did you see the match last night", "i will make some tea", "the traffic was terrible today",
        "she said she would call back later", "my brother bought a new car", "it rained all weekend")
TALKERS = ("en-us+m3", "en-us+f2", "en")


def babble(length: int, seed: int) -> np.ndarray:
    """Three people talking on and on, each starting at a random point of their talk (unit power)."""
    rng = np.random.default_rng(seed)
    total = np.zeros(length)
    for voice in TALKERS:
        pieces: list[np.ndarray] = []
        while sum(len(p) for p in pieces) < 2 * length:
            said = speech(TALK[int(rng.integers(len(TALK)))], voice).astype(np.float64)
            pieces += [said / np.sqrt(speech_power(said)), np.zeros(int(rng.uniform(0.05, 0.3) * SAMPLE_RATE))]
        offset = int(rng.integers(0, SAMPLE_RATE))
        total += np.concatenate(pieces)[offset:offset + length]
    unit: np.ndarray = total / np.sqrt(np.mean(total**2))
    return unit


def in_babble(text: str, seed: int = 0, below_db: float = 15.0,
              dry_speech: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """The player saying ``text`` (in espeak-ng's voice, or ``dry_speech``) a second into the others' talk;
    returns the samples and where speech ends."""
    voice = (speech(text) if dry_speech is None else dry_speech).astype(np.float64)
    lead, tail = SAMPLE_RATE, int(1.5 * SAMPLE_RATE)
    signal = np.zeros(lead + len(voice) + tail)
    signal[lead:lead + len(voice)] = voice
    signal += babble(len(signal), seed) * np.sqrt(speech_power(voice) / 10 ** (below_db / 10))
    return np.clip(np.round(signal), -32768, 32767).astype(np.int16), lead + len(voice)


def end_decided_at(samples: np.ndarray, settings: EndpointSettings | None = None) -> int | None:
    """Stream position at which the first utterance's end was decided (None: not within the clip)."""
    endpointer = Endpointer(settings)
    for block in blocks(samples, BLOCK_SAMPLES):
        if any(event.mark is Mark.END for event in endpointer.push(block)):
            return endpointer.position
    return None


SEEDS = range(12)
SPLIT_MOVE = "play seven red one five red two two"


def late_ends(settings: EndpointSettings | None = None) -> int:
    """Of twelve babble clips of a split move, how many ended later than the hangover plus 0.25 s (or never)."""
    allowed = (EndpointSettings().hangover + 0.25) * SAMPLE_RATE
    late = 0
    for seed in SEEDS:
        samples, speech_end = in_babble(SPLIT_MOVE, seed)
        decided = end_decided_at(samples, settings)
        late += decided is None or decided - speech_end > allowed
    return late


def test_the_end_of_a_move_is_found_while_the_others_keep_talking() -> None:
    assert late_ends() == 0


def test_judging_by_the_floor_alone_the_others_keep_the_utterance_open() -> None:
    """Why the endpointer also compares frames with the player's own level: without it the others'
    voices rise above the floor-based threshold often enough that the end comes late."""
    assert late_ends(EndpointSettings(below_speech_db=None)) >= 3


def test_a_steady_background_is_not_judged_against_the_players_level() -> None:
    """A fan or white noise has no level spread: the quieter ends of words still count as speech there."""
    endpointer = Endpointer()
    rng = np.random.default_rng(4)
    endpointer.push(np.round(rng.standard_normal(SAMPLE_RATE) * 300).astype(np.int16))
    assert endpointer.noise_floor_db is not None
    assert not endpointer._under_speech(-60.0)


def hear_stream(recogniser: StreamingRecogniser, samples: np.ndarray, grammar: Grammar) -> Heard:
    """The first utterance of a stream fed as the microphone delivers it (the others talk from its start)."""
    recogniser.new_stream()
    recogniser.set_grammar(grammar)
    for block in blocks(samples, BLOCK_SAMPLES):
        heard = recogniser.accept(block)
        if heard is not None:
            recogniser.reset()
            return heard
    heard = recogniser.finish() or Heard("")
    recogniser.reset()
    return heard


def test_a_move_said_through_three_other_talkers_is_heard_as_that_move() -> None:
    """Through the real recogniser (pocketsphinx), a move 15 dB above three other talkers (R-free: hearing only)."""
    recogniser = SphinxRecogniser()
    right = 0
    states = random_positions(4, seed=11)
    for index, state in enumerate(states):
        move = sorted(legal_moves(state), key=lambda m: m.phrase)[0]
        samples, _ = in_babble(move.phrase, seed=index)
        heard = hear_stream(recogniser, samples, grammar_of(state))
        right += resolve(state, state.turn, heard) == move
    assert right >= 3
