"""The first words of a stream: a player who answers the game's first prompt at once.

The stream starts as the game starts talking (muted: its voice on loudspeakers), the Listener's echo
guard follows, then ``room`` seconds of the room before the player speaks. Fed block by block through
the real VoiceInput (grammar set, mute and guard as at the table) and the real recogniser.
Run as a script for the measurement table (``python tests/speech/first_words.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from speech_helpers import grammar_of, random_positions, speech  # noqa: E402
from test_speech_babble import babble  # noqa: E402

from voicejack.engine import GameState, Move, legal_moves  # noqa: E402
from voicejack.hearing import Heard  # noqa: E402
from voicejack.language import resolve  # noqa: E402
from voicejack.speech.audio import BLOCK_SAMPLES, SAMPLE_RATE, blocks  # noqa: E402
from voicejack.speech.corpus import speech_power  # noqa: E402
from voicejack.speech.microphone import BlockQueue, VoiceInput  # noqa: E402
from voicejack.speech.recogniser import StreamingRecogniser  # noqa: E402

CONDITIONS = ("quiet", "20 dB", "babble")
SPEECH_RMS = 3000.0
ROOM_TONE_RMS = 30.0
GUARD = 0.2  # the Listener's echo guard after the game stops speaking


def in_room(text: str, condition: str, lead: float, seed: int, voice: str = "en-us") -> tuple[np.ndarray, int]:
    """``text`` said ``lead`` seconds into a stream of ``condition`` (1.2 s after it); returns samples, speech start."""
    said = speech(text, voice).astype(np.float64)
    said *= SPEECH_RMS / np.sqrt(speech_power(said))
    start = int(lead * SAMPLE_RATE)
    signal = np.zeros(start + len(said) + int(1.2 * SAMPLE_RATE))
    signal[start:start + len(said)] = said
    rng = np.random.default_rng(seed)
    if condition == "20 dB":
        signal += rng.standard_normal(len(signal)) * SPEECH_RMS / 10.0
    elif condition == "babble":
        signal += babble(len(signal), seed) * SPEECH_RMS / 10 ** (15.0 / 20)
    elif condition != "quiet":
        raise ValueError(condition)
    signal += rng.standard_normal(len(signal)) * ROOM_TONE_RMS
    return np.clip(np.round(signal), -32768, 32767).astype(np.int16), start


def answers_first_prompt(recogniser: StreamingRecogniser, state: GameState, move: Move, condition: str,
                         room: float, seed: int, muted: float = 1.0) -> bool:
    """True when ``move``, said ``room`` s after the guard that follows ``muted`` s of the game's voice, is heard."""
    samples, _ = in_room(move.phrase, condition, (muted + GUARD if muted else 0.0) + room, seed)
    fed = 0
    voice = VoiceInput(recogniser, source=BlockQueue(), muted=lambda: fed < int(muted * SAMPLE_RATE))
    recogniser.new_stream()
    voice.set_grammar(grammar_of(state))  # the game sets the grammar as it asks
    heard: Heard | None = None
    for block in blocks(samples, BLOCK_SAMPLES):
        result = voice.hear_block(block)
        fed += len(block)
        if result is not None:
            heard = result[0]
            break
    if heard is None:
        heard = recogniser.finish()
    recogniser.reset()
    return heard is not None and resolve(state, state.turn, heard) == move


def cases(count: int, seed: int = 5) -> list[tuple[GameState, Move]]:
    states = random_positions(count, seed=seed)
    return [(state, sorted(legal_moves(state), key=lambda m: m.phrase)[index % 3]) for index, state in enumerate(states)]


def main() -> None:
    from voicejack.speech.sphinx import SphinxRecogniser

    recogniser = SphinxRecogniser()
    chosen = cases(8)
    rooms = (0.05, 0.1, 0.2, 0.5)
    print("| condition, speech said after | " + " | ".join(f"{room:.2f} s" for room in rooms) + " |")
    print("|---|" + "---:|" * len(rooms))
    for muted in (1.0, 0.0):
        for condition in CONDITIONS:
            cells = []
            for room in rooms:
                right = sum(answers_first_prompt(recogniser, state, move, condition, room, seed, muted)
                            for seed, (state, move) in enumerate(chosen))
                cells.append(f"{right}/{len(chosen)}")
            after = "after the game's first prompt" if muted else "stream start"
            print(f"| {condition}, {after} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
