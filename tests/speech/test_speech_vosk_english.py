"""The vosk backend with a real English model (english_vosk.py: a small US English vosk model from npm).

test_speech_vosk.py checks the backend's mechanics on PyPI's Korean model; these check what needs
English: that every word the game listens for is in an English model's vocabulary (a phrase with a word
the model lacks could never be heard), that moves and commands said by espeak-ng are heard through the
real recogniser and its grammar, and that the wake word, which no vosk model knows as one word, is heard
through the sound-alike words the model has.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from english_vosk import english_vosk_model
from speech_helpers import as_callback_blocks, clip, grammar_of, random_positions

from voicejack.language import Grammar, Heard
from voicejack.speech import choose_backend, make_recogniser
from voicejack.speech.listening import ListeningGate, ListenMode, WakeWord
from voicejack.speech.vosk_backend import VoskRecogniser, check_model_layout


@pytest.fixture(scope="module")
def model() -> Path:
    return english_vosk_model()


@pytest.fixture(scope="module")
def recogniser(model: Path) -> VoskRecogniser:
    return VoskRecogniser(model)


def listen(recogniser: VoskRecogniser, grammar: Grammar, samples: np.ndarray) -> list[Heard]:
    recogniser.new_stream()
    recogniser.set_grammar(grammar)
    heard = [h for block in as_callback_blocks(samples) if (h := recogniser.accept(block[:, 0])) is not None]
    final = recogniser.finish()
    return heard + ([final] if final is not None else [])


def test_every_word_the_game_listens_for_is_in_an_english_models_vocabulary(model: Path,
                                                                             recogniser: VoskRecogniser) -> None:
    assert check_model_layout(model) == []
    for players in (2, 4):
        for state in random_positions(5, seed=11, players=players):
            grammar = grammar_of(state)
            assert recogniser.unknown_words(grammar) == ()
            assert set(json.loads(recogniser.grammar_json(grammar))) >= set(grammar.phrases)


@pytest.mark.parametrize("voice", ["en-us", "en-gb"])
def test_commands_and_most_moves_said_in_a_quiet_room_are_heard(recogniser: VoskRecogniser, voice: str) -> None:
    states = random_positions(4, seed=5)
    for command in ("read the board", "my cards", "repeat"):
        assert [h.text for h in listen(recogniser, grammar_of(states[0]), clip(command, voice))] == [command]
    said = heard_right = 0
    for state in states:
        grammar = grammar_of(state)
        moves = sorted(p for p in grammar.phrases if p.startswith(("play", "burn")))
        for move in random.Random(1).sample(moves, 4):
            said += 1
            heard_right += [h.text for h in listen(recogniser, grammar, clip(move, voice))] == [move]
    # A small, older model: 11-12 of 16 here, against nearly all for pocketsphinx (models/README.md).
    assert heard_right >= 10, f"{heard_right} of {said} moves heard as said"


def test_the_wake_word_is_heard_as_the_sound_alike_words_an_english_model_knows(recogniser: VoskRecogniser) -> None:
    assert not recogniser.knows("jackaroo")
    gate = ListeningGate(ListenMode.WAKE, WakeWord(), knows=recogniser.knows)
    assert gate.wake_words == ("jack", "a", "rue")  # "roo" is not an English word to it
    grammar = gate.listened_grammar(grammar_of(random_positions(1, seed=5)[0]))
    heard = listen(recogniser, grammar, clip("jackaroo, read the board", "en-us"))
    assert [admitted.text for h in heard if (admitted := gate.admit(h)) is not None] == ["read the board"]
    assert all(gate.admit(h) is None for h in listen(recogniser, grammar, clip("read the board", "en-us")))


def test_voice_input_takes_the_english_model_named_by_the_environment(model: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOICEJACK_VOSK_MODEL", str(model))
    monkeypatch.setattr("voicejack.speech.whisper_ready", lambda: False)
    assert choose_backend("auto") == "vosk"
    chosen = make_recogniser("auto")
    assert isinstance(chosen, VoskRecogniser) and chosen.model_path == model
