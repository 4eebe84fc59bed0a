"""A small word model on Whisper tiny.en's encoder that scores every sentence of the grammar (CTC).

Whisper's decoder can only score the few sentences nearest its own free transcript, and among other
talkers or in a reverberant room the sentence said is often on no recogniser's list at all. This model
reads the same encoder output Whisper's check has already computed and gives, for each 20 ms frame, a
probability for every word the game listens for (and "<unk>" for any other word, "<blank>" for none); a
sentence's score is the probability of its words in order under connectionist temporal classification,
summed over every alignment. That takes a few milliseconds for the whole grammar, so every sentence of
the moment is weighed, not only a shortlist.

It is two layers (five frames in, 256 units, a residual layer, one output per word), trained by
``benchmarks/word_head.py`` on this project's own synthesised speech: the tuning voices of
benchmarks/voices.py only, saying moves, commands, answers and table talk in random positions of games no
benchmark plays, in rooms, noise, babble and music with settings drawn at random. The weights ship with
the package (``data/word_head.npz``, float16); numpy runs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from voicejack.speech.recogniser import SpeechError
from voicejack.speech.threads import one_blas_thread

__all__ = ["BLANK", "UNKNOWN", "Spotted", "WordHead", "WordHeadUnavailable", "ctc_log_likelihoods",
           "default_head_path"]

BLANK, UNKNOWN = "<blank>", "<unk>"
_NEG = -1e30


class WordHeadUnavailable(SpeechError):
    """The word model's weights are missing or damaged."""


def default_head_path() -> Path:
    return Path(__file__).resolve().parent / "data" / "word_head.npz"


@dataclass(frozen=True, slots=True)
class Spotted:
    """The word model's scores of one utterance: every sentence's log-likelihood, best first, and the
    score of the model's single best path (what no sentence can beat), over ``frames`` frames."""

    ranked: tuple[tuple[str, float], ...]
    best_path: float
    frames: int

    def best(self, count: int) -> tuple[str, ...]:
        return tuple(text for text, _ in self.ranked[:count])

    def margin(self, sentence: str, same: frozenset[str] = frozenset()) -> float:
        """How far ``sentence`` stands above the best other sentence (negative: below it), not counting the
        sentences of ``same`` (ones that mean what it means)."""
        scores = dict(self.ranked)
        rival = next((score for text, score in self.ranked if text != sentence and text not in same), None)
        if sentence not in scores or rival is None:
            return -99.0 if sentence not in scores else 99.0
        return scores[sentence] - rival

    def fit(self, sentence: str) -> float:
        """The sentence's log-likelihood against the best path, per second: 0 when nothing fits better."""
        score = dict(self.ranked).get(sentence)
        if score is None:
            return -99.0
        return (score - self.best_path) / max(1.0, self.seconds)

    @property
    def seconds(self) -> float:
        """How long the utterance scored was (the encoder gives 50 frames a second)."""
        return self.frames / 50.0


class WordHead:
    """Loads the weights once; ``spot`` scores a grammar's sentences against one utterance's encoder output."""

    def __init__(self, path: str | Path | None = None) -> None:
        source = Path(path) if path is not None else default_head_path()
        try:
            data = np.load(source)
            self.vocabulary = [str(word) for word in data["vocab"]]
            self._weights = {name: data[name].astype(np.float32) for name in ("w1", "b1", "w2", "b2", "w3", "b3")}
            self._context = self._context_of(data)
        except (OSError, KeyError, ValueError) as error:
            raise WordHeadUnavailable(
                f"the word model {source} is missing or damaged ({error}); reinstall voicejack, or check with "
                "pocketsphinx alone (--backend sphinx)") from None
        self._index = {word: i for i, word in enumerate(self.vocabulary)}
        if UNKNOWN not in self._index or self._weights["w3"].shape[1] != len(self.vocabulary):
            raise WordHeadUnavailable(f"the word model {source} does not match its own vocabulary; reinstall voicejack")
        self._labels: dict[str, tuple[int, ...]] = {}

    @staticmethod
    def _context_of(data: Any) -> int:
        features = int(data["features"]) if "features" in data else 384
        return (int(data["w1"].shape[0]) // features - 1) // 2

    def log_probabilities(self, encoded: np.ndarray) -> np.ndarray:
        """Per-frame log-probabilities (frames, vocabulary) for encoder frames (frames, features)."""
        frames = np.asarray(encoded, dtype=np.float32)
        c = self._context
        padded = np.pad(frames, ((c, c), (0, 0)))
        stacked = np.concatenate([padded[i:i + len(frames)] for i in range(2 * c + 1)], axis=1)
        w = self._weights
        hidden = _gelu(stacked @ w["w1"] + w["b1"])
        hidden = _gelu(hidden @ w["w2"] + w["b2"]) + hidden
        logits = hidden @ w["w3"] + w["b3"]
        logits -= logits.max(axis=1, keepdims=True)
        result: np.ndarray = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        return result

    def spot(self, encoded: np.ndarray, sentences: Sequence[str]) -> Spotted:
        """Every sentence's log-likelihood given the encoder frames of the speech (trailing padding cut off)."""
        with one_blas_thread():  # the scores the rules were tuned on (threads.py)
            log_probs = self.log_probabilities(encoded)
        if not sentences:
            return Spotted((), float(log_probs.max(axis=1).sum()), len(log_probs))
        scores = ctc_log_likelihoods(log_probs, [self.labels(s) for s in sentences])
        ranked = tuple(sorted(zip(sentences, (float(s) for s in scores)), key=lambda pair: -pair[1]))
        return Spotted(ranked, float(log_probs.max(axis=1).sum()), len(log_probs))

    def hears_alike(self, first: str, second: str) -> bool:
        """The two sentences are the same words to this model once the words it was never taught (a wake word
        such as "jackaroo") are left out: it cannot rank one above the other for a reason."""
        unknown = self._index[UNKNOWN]
        return ([label for label in self.labels(first) if label != unknown]
                == [label for label in self.labels(second) if label != unknown])

    def knows_a_word_of(self, sentence: str) -> bool:
        """Whether any word of ``sentence`` is one this model was taught (a wake word alone is not)."""
        unknown = self._index[UNKNOWN]
        return any(label != unknown for label in self.labels(sentence))

    def labels(self, sentence: str) -> tuple[int, ...]:
        if sentence not in self._labels:
            unknown = self._index[UNKNOWN]
            self._labels[sentence] = tuple(self._index.get(word, unknown) for word in sentence.split())
        return self._labels[sentence]


def _gelu(x: np.ndarray) -> np.ndarray:
    result: np.ndarray = 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))
    return result


def ctc_log_likelihoods(log_probs: np.ndarray, label_sequences: Sequence[Sequence[int]],
                        blank: int = 0) -> np.ndarray:
    """log P(labels | frames) under CTC for each label sequence, all at once (the forward algorithm).

    ``log_probs``: (frames, units) log-probabilities. A sequence longer than the frames can hold, or an
    empty one in speech, simply gets a very low score."""
    count = len(label_sequences)
    longest = max((len(labels) for labels in label_sequences), default=0)
    states = 2 * longest + 1
    extended = np.full((count, states), blank, dtype=np.int64)
    valid = np.zeros((count, states), dtype=bool)
    may_skip = np.zeros((count, states), dtype=bool)  # from two states back: a new, different label
    last = np.zeros(count, dtype=np.int64)
    for n, labels in enumerate(label_sequences):
        for j, unit in enumerate(labels):
            extended[n, 2 * j + 1] = unit
            may_skip[n, 2 * j + 1] = j > 0 and labels[j - 1] != unit
        valid[n, : 2 * len(labels) + 1] = True
        last[n] = 2 * len(labels)
    emissions = log_probs[:, extended]  # (frames, count, states)
    alpha = np.full((count, states), _NEG)
    alpha[:, 0] = emissions[0, :, 0]
    if states > 1:
        alpha[:, 1] = emissions[0, :, 1]
    alpha[~valid] = _NEG
    one_back = np.full((count, states), _NEG)
    two_back = np.full((count, states), _NEG)
    for frame in range(1, len(log_probs)):
        one_back[:, 1:] = alpha[:, :-1]
        two_back[:, 2:] = alpha[:, :-2]
        skipped = np.where(may_skip, two_back, _NEG)
        top = np.maximum(np.maximum(alpha, one_back), skipped)
        alpha = top + np.log(np.exp(alpha - top) + np.exp(one_back - top) + np.exp(skipped - top)) + emissions[frame]
        alpha[~valid] = _NEG
    rows = np.arange(count)
    end = alpha[rows, last]
    before = np.where(last > 0, alpha[rows, np.maximum(last - 1, 0)], _NEG)
    top = np.maximum(end, before)
    result: np.ndarray = top + np.log(np.exp(end - top) + np.exp(before - top))
    return result
