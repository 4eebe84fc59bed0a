"""vosk backend: a Kaldi model from models/ (or a configured path) with a per-state grammar.

Facts this module is built around (vosk 0.3.45, measured):
- a grammar word missing from the model's vocabulary is silently dropped
  from its sentence, which would turn "play nine red two" into a different
  sentence; so every word is checked with the model first, sentences with
  unknown words are left out whole, and the unknown words are reported;
- ``SetGrammar`` while an utterance is being decoded aborts the process
  (a C++ error, uncatchable from Python): switches are deferred by
  StreamingRecogniser and this class refuses one outright if it ever sees
  decoding in progress;
- grammars need a model with a runtime graph (graph/HCLr.fst + Gr.fst);
- a vosk "grammar" is a small bigram model estimated from the sentences,
  not a strict list: it can join pieces of two sentences ("사과 안녕하세요"
  was heard from a list holding each alone). So only readings that are
  whole sentences of the grammar are passed on: the best of those in the
  n-best list, with confidences reduced by whatever the others hold;
- ``[unk]`` in the grammar lets out-of-grammar speech come out as
  "[unk]" instead of being forced onto a sentence (English models have it;
  the Korean test model does not, which is reported as ``unk_supported``);
- vosk gives per-word confidences (MBR) or n-best alternatives, never both
  from one ``Result()``, and its partial results carry no words while a
  grammar is decoded. So it runs in n-best mode, the n-best likelihoods
  are turned into posteriors (softmax), and a word's confidence is the
  total posterior of the hypotheses that have the same word at the same
  place (a small confusion-network estimate).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from voicejack.hearing import Grammar, Heard
from voicejack.speech.audio import SAMPLE_RATE
from voicejack.speech.endpoint import EndpointSettings
from voicejack.speech.recogniser import GrammarError, SpeechError, StreamingRecogniser

UNKNOWN = "[unk]"


class ModelError(SpeechError):
    """A vosk model that is missing, unreadable or cannot take grammars."""


def check_model_layout(path: Path) -> list[str]:
    """What is missing from a vosk model directory for grammar use (empty list: looks usable)."""
    problems = []
    for part in ("am/final.mdl", "conf/model.conf", "graph/HCLr.fst", "graph/Gr.fst"):
        if not (path / part).is_file():
            problems.append(part)
    return problems


_MODELS: dict[str, object] = {}


def load_model(path: str | Path) -> object:
    """A vosk.Model, loaded once per path per process (models take seconds and hundreds of MB)."""
    model_path = Path(path).expanduser().resolve()
    key = str(model_path)
    if key in _MODELS:
        return _MODELS[key]
    if not model_path.is_dir():
        raise ModelError(f"no vosk model at {model_path}")
    missing = check_model_layout(model_path)
    if missing:
        raise ModelError(
            f"{model_path} cannot be used with grammars: missing {', '.join(missing)} "
            "(use a model with a runtime graph, e.g. vosk-model-small-en-us-0.15)"
        )
    import vosk

    vosk.SetLogLevel(-1)
    try:
        model = vosk.Model(str(model_path))
    except Exception as error:  # noqa: BLE001 - vosk raises a bare Exception when loading fails
        raise ModelError(f"vosk could not load the model at {model_path}: {error}") from None
    _MODELS[key] = model
    return model


class VoskRecogniser(StreamingRecogniser):
    """vosk with a per-state grammar and [unk] rejection."""

    name = "vosk"

    def __init__(
        self,
        model_path: str | Path,
        endpoint: EndpointSettings | None = None,
        max_alternatives: int = 3,
        nbest: int = 8,
    ) -> None:
        # vosk's online feature pipeline needs some audio before the speech to settle: with only
        # 0.3 s it heard "사과 안녕하세요" for "안녕하세요"; 0.8 s of preroll fixed that.
        super().__init__(endpoint or EndpointSettings(preroll=0.8))
        self.model_path = Path(model_path)
        self._model = load_model(model_path)
        self.max_alternatives = max_alternatives
        self.nbest = max(nbest, max_alternatives + 1)
        self.missing_words: tuple[str, ...] = ()
        self.unk_supported = self.knows(UNKNOWN)
        self._recogniser: object | None = None
        self._running = False  # vosk holds audio of an unfinished utterance

    def knows(self, word: str) -> bool:
        return int(self._model.vosk_model_find_word(word)) >= 0  # type: ignore[attr-defined]

    def unknown_words(self, grammar: Grammar) -> tuple[str, ...]:
        return tuple(sorted(word for word in grammar.words() if not self.knows(word)))

    def grammar_json(self, grammar: Grammar) -> str:
        """The JSON sentence list vosk is given: known sentences, plus [unk] when the model has it."""
        missing = set(self.unknown_words(grammar))
        sentences = [" ".join(p.split()) for p in grammar.phrases if not set(p.split()) & missing]
        if not sentences:
            raise GrammarError(
                f"no phrase of the grammar is in the model's vocabulary (unknown: {', '.join(sorted(missing))})"
            )
        if self.unk_supported:
            sentences.append(UNKNOWN)
        return json.dumps(sentences, ensure_ascii=False)

    def _apply_grammar(self, grammar: Grammar) -> None:
        if self._running:
            # Never reached through StreamingRecogniser; this guards the process against future callers.
            raise SpeechError("refusing to switch the vosk grammar mid-utterance (vosk would abort the process)")
        import vosk

        text = self.grammar_json(grammar)
        if self._recogniser is None:
            recogniser = vosk.KaldiRecognizer(self._model, SAMPLE_RATE, text)
            recogniser.SetMaxAlternatives(self.nbest)
            self._recogniser = recogniser
        else:
            self._recogniser.SetGrammar(text)  # type: ignore[attr-defined]
        self._grammar = grammar
        self.missing_words = self.unknown_words(grammar)

    def _start_utterance(self) -> None:
        pass

    def _feed(self, audio: np.ndarray) -> None:
        assert self._recogniser is not None
        # The return value is vosk's own endpoint; ours (shared with sphinx) decides instead.
        self._recogniser.AcceptWaveform(np.ascontiguousarray(audio, dtype="<i2").tobytes())  # type: ignore[attr-defined]
        self._running = True

    def _abort_utterance(self) -> None:
        if self._recogniser is not None and self._running:
            self._recogniser.Reset()  # type: ignore[attr-defined]
        self._running = False

    def _end_utterance(self) -> Heard:
        assert self._recogniser is not None
        final = json.loads(self._recogniser.Result())  # type: ignore[attr-defined]
        self._running = False
        sentences = frozenset(" ".join(p.split()) for p in self._grammar.phrases) if self._grammar else None
        return nbest_to_heard(final, self.max_alternatives, sentences)


def nbest_to_heard(final: dict[str, Any], max_alternatives: int, sentences: frozenset[str] | None = None) -> Heard:
    """A vosk n-best result as a Heard: the best whole-sentence reading, word posteriors, other readings.

    ``sentences``: the grammar's sentences; readings outside it (vosk's bigram
    joins, [unk]) are never the text. None accepts any reading without [unk].
    """
    entries = final.get("alternatives")
    if entries is None:  # a one-best result (SetMaxAlternatives(0))
        entries = [{"text": final.get("text", ""), "confidence": 0.0}]
    hypotheses: list[tuple[str, float]] = []
    for entry in entries:
        text = " ".join(str(entry.get("text", "")).split())
        hypotheses.append((text, float(entry.get("confidence", 0.0))))
    if not hypotheses:
        return Heard("")
    scores = np.array([score for _, score in hypotheses])
    posteriors = np.exp(scores - scores.max())
    posteriors /= posteriors.sum()
    readings: list[str] = []
    for text, _ in hypotheses:
        allowed = text in sentences if sentences is not None else UNKNOWN not in text.split()
        if text and allowed and text not in readings:
            readings.append(text)
    best = hypotheses[0][0]
    if not best or UNKNOWN in best.split():
        # Nothing, or speech outside the grammar: rejected; in-grammar readings stay as hints.
        return Heard("", (), tuple(readings[:max_alternatives]))
    if not readings:
        return Heard("")
    best = readings[0]
    words = best.split()
    confidences = []
    for index, word in enumerate(words):
        agreeing = sum(
            float(p) for (text, _), p in zip(hypotheses, posteriors) if index < len(text.split()) and text.split()[index] == word
        )
        confidences.append(round(min(1.0, agreeing), 4))
    alternatives = tuple(text for text in readings if text != best)[:max_alternatives]
    return Heard(best, tuple(confidences), alternatives)
