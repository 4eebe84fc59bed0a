"""pocketsphinx 5 backend: the English model inside its wheel, one JSGF grammar per game state.

Works on a fresh machine with no download. Audio goes through the noise
reducer (denoise.py), then the shared endpointer (endpoint.py).

Decoding: each utterance is buffered and decoded in one pass when the
endpointer closes it (pocketsphinx then normalises the cepstral mean over
the whole utterance); that takes 15-50 ms. After a short pause the buffer
so far is decoded the same way, and a whole, confident sentence that no
longer one continues ends the utterance there (recogniser.py, "Ending
early"); otherwise the buffer is kept and decoded again at the end.
Decoding block by block while the player speaks (``whole_utterance=False``)
answers in under 15 ms but starts from the previous utterance's cepstral
mean: once a voice has been heard it does as well, but the first
utterance of a fresh recogniser was right 15-27 times in 60 against 54 in
60 decoded whole (measured on the benchmark corpus).

Grammar: each turn's sentences become a finite-state grammar in which
every sentence is equally likely (fsg.py); the compact JSGF text gave a
one-word command about 1/26 of the prior of a two-word sentence. Same
accuracy, 5 ms quicker decoding (benchmarks/asr.py). A few pronunciations
the US dictionary lacks are added (ACCENT_VARIANTS): "help" with a
vocalised l was heard as "nope" in espeak-ng's British voice.

Confidence: pocketsphinx scores each frame against the best-scoring
senone of that frame, so a word's acoustic score per frame (natural log
per 10 ms) says how far the grammar-forced path strays from what the
audio sounds like: in-grammar words mostly score -1.5 to -4, words forced
onto out-of-grammar speech mostly -5 to -12. A word's confidence is the
smaller of two logistics: one of its own score, one of the utterance's
mean word score (so chatter forced onto a command scores low on every
word, not only on the worst one). Midpoints and slopes were tuned with
benchmarks/asr.py against the command language's thresholds. Sentences
cut short (the search ended outside a final state) are never passed on,
and an utterance whose weakest word falls below ``reject_below`` (0:
off, the command language decides) comes back with empty text.

Judging (judging.py): the confidences say how well the heard sentence
fits, not whether another sentence fits as well, and the wrong hearings
were mostly confident. So the same audio is decoded once more under the
grammar without the heard sentence; a runner-up that scores about as well
(or better: the first search's beam lost it) is passed on as an
alternative, and the command language asks. That second decoding costs
about as much as the first (15-50 ms). The early-end decision is taken on
the hearing before judging, so judging never changes when an utterance
ends (and benchmarks/asr_replay.py can replay it exactly).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace

import numpy as np

from voicejack.hearing import Grammar, Heard
from voicejack.speech.audio import SAMPLE_RATE
from voicejack.speech.denoise import FrontEnd, NoiseReducer
from voicejack.speech.endpoint import FRAME, EndpointSettings
from voicejack.speech.fsg import sentence_graph
from voicejack.speech.judging import Evidence, JudgeSettings, judge
from voicejack.hearing.jsgf import sentences_jsgf
from voicejack.speech.recogniser import (
    EARLY_END,
    GrammarError,
    SpeechError,
    StreamingRecogniser,
)

# Scores (ln per frame) at which confidence is one half, and the logistics' slopes (benchmarks/asr.py).
CONFIDENCE_MIDPOINT = -6.5
CONFIDENCE_SLOPE = 3.0
UTTERANCE_MIDPOINT = -4.0
UTTERANCE_SLOPE = 4.0
# n-best readings further than this below the best (difference of the natural logs of the scores the
# Python binding reports) are not passed on as alternatives: they were never close, and the command
# language asks for confirmation whenever an alternative names another move.
ALTERNATIVE_GAP = 0.01
# An utterance ends after a short pause only when every word of the sentence heard so far is at least this
# sure (the command language acts without confirming from 0.6).
EARLY_CONFIDENCE = 0.6

# pocketsphinx's own defaults otherwise: raising the phone insertion probability (pip=2) and the
# silence probability helped clean moves in benchmarks/asr.py but let more chatter through.
DEFAULT_CONFIG: dict[str, object] = {
    "loglevel": "FATAL",
}


# Pronunciations the US dictionary lacks but players (and espeak-ng's voices) use: British vowels and
# a vocalised l. Non-rhotic forms of every word (non_rhotic=True) raised one-word commands at 20 dB
# but let more chatter through (benchmarks/asr.py), so they are off by default.
ACCENT_VARIANTS: dict[str, tuple[str, ...]] = {
    "help": ("HH EH OW P", "HH EH UH P"),
    "stop": ("S T AO P",),
    "faster": ("F AA S T ER", "F AA S T AH"),
    "last": ("L AA S T",),
}
# Words the dictionary lacks altogether: the game's own name, the default wake word of --listen wake
# (listening.py): American, British (espeak-ng says the second) and non-rhotic forms; the last two found
# the word alone in 26 of 28 voices against 24 without them (benchmarks/listening.py voices).
NEW_WORDS: dict[str, tuple[str, ...]] = {
    "jackaroo": ("JH AE K ER UW", "JH AE K AH R UW", "JH AE K AH UW", "JH AA K AH R UW"),
}
_VOWELS = frozenset(
    ["AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"]
)


def non_rhotic(phones: str) -> str | None:
    """The pronunciation without an r that follows a vowel and precedes no vowel ("score" S K AO), or None."""
    units = phones.split()
    out: list[str] = []
    for index, unit in enumerate(units):
        following = units[index + 1] if index + 1 < len(units) else None
        if unit == "ER" and following not in _VOWELS:
            out.append("AH")
        elif unit == "R" and index and units[index - 1] in _VOWELS and following not in _VOWELS:
            continue
        else:
            out.append(unit)
    changed = " ".join(out)
    return changed if changed != phones else None


def _logistic(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, value))))


def word_confidences(scores: list[float]) -> tuple[float, ...]:
    """Per-word confidences (0..1) from per-frame acoustic scores of the words of one utterance."""
    if not scores:
        return ()
    utterance = _logistic((sum(scores) / len(scores) - UTTERANCE_MIDPOINT) * UTTERANCE_SLOPE)
    return tuple(round(min(_logistic((s - CONFIDENCE_MIDPOINT) * CONFIDENCE_SLOPE), utterance), 4) for s in scores)


def word_levels(audio: np.ndarray, spans: list[tuple[int, int]]) -> tuple[float, ...]:
    """Each word's level (dB) relative to the loudest word; ``spans`` are each word's first and last 10 ms frame.

    A word's level is the 90th percentile of its frames' power: a word's span often takes in the quiet
    before or after it, which a mean would count."""
    frame = SAMPLE_RATE // 100
    found: list[float] = []
    for start, end in spans:
        piece = np.asarray(audio[max(0, start) * frame:(end + 1) * frame], dtype=np.float64)
        if len(piece) < frame:
            return ()
        powers = np.mean(piece[: len(piece) // frame * frame].reshape(-1, frame) ** 2, axis=1)
        found.append(10.0 * math.log10(float(np.percentile(powers, 90)) + 1.0))
    if not found:
        return ()
    loudest = max(found)
    return tuple(round(level - loudest, 1) for level in found)


def _plain_word(word: str) -> str:
    """pocketsphinx marks alternate pronunciations as word(2)."""
    return word.split("(", 1)[0]


def _is_filler(word: str) -> bool:
    return word.startswith(("<", "[", "+")) or word in ("<sil>", "<s>", "</s>")


class SphinxRecogniser(StreamingRecogniser):
    """pocketsphinx with a per-state grammar."""

    name = "sphinx"

    def __init__(
        self,
        config: Mapping[str, object] | None = None,
        endpoint: EndpointSettings | None = None,
        denoise: bool | FrontEnd = True,
        reject_below: float = 0.0,
        max_alternatives: int = 3,
        alternative_gap: float = ALTERNATIVE_GAP,
        whole_utterance: bool = True,
        grammar_form: str = "fsg",
        accent_variants: bool = True,
        non_rhotic: bool = False,
        sentence_weight: Callable[[str], float] | None = None,
        early_end: float | None = EARLY_END,
        early_confidence: float = EARLY_CONFIDENCE,
        early_padding: bool = True,
        judging: JudgeSettings | None = JudgeSettings(),
    ) -> None:
        super().__init__(endpoint, early_end)
        self.early_confidence = early_confidence
        self.early_padding = early_padding
        try:
            import pocketsphinx
        except ImportError as error:  # pragma: no cover - pocketsphinx is a hard dependency
            raise SpeechError(f"pocketsphinx is not installed ({error})") from None
        options = dict(DEFAULT_CONFIG)
        options.update(config or {})
        # lm=None: no default language model; every search is a grammar we add.
        self._decoder = pocketsphinx.Decoder(lm=None, **options)
        for word, pronunciations in NEW_WORDS.items():
            for number, phones in enumerate(pronunciations, 1):
                self._decoder.add_word(word if number == 1 else f"{word}({number})", phones, False)
        self._reducer: FrontEnd | None
        if isinstance(denoise, bool):
            self._reducer = NoiseReducer() if denoise else None
        else:
            self._reducer = denoise  # another front end, e.g. benchmarks/front_ends.py's
        self.reject_below = reject_below
        self.max_alternatives = max_alternatives
        self.alternative_gap = alternative_gap
        self.missing_words: tuple[str, ...] = ()
        self.whole_utterance = whole_utterance
        if grammar_form not in ("fsg", "jsgf"):
            raise ValueError(f"grammar_form is 'fsg' or 'jsgf', not {grammar_form!r}")
        self.grammar_form = grammar_form
        self.sentence_weight = sentence_weight
        self._buffer: list[np.ndarray] = []
        self._in_decoder = False  # start_utt() called and end_utt() not yet
        self._search_count = 0
        self._search: str | None = None
        self._sentences: frozenset[str] = frozenset()
        self.accent_variants = accent_variants
        self.non_rhotic = non_rhotic
        self._varied: set[str] = set()
        self._phrases: list[str] = []
        # Weighing each hearing against the runner-up sentence (judging.py); None: off.
        self.judging = judging
        self.last_evidence: Evidence | None = None
        self.last_unjudged: Heard = Heard("")  # the last result before the evidence was weighed

    # -- vocabulary ---------------------------------------------------------

    def knows(self, word: str) -> bool:
        return self._decoder.lookup_word(word) is not None

    def unknown_words(self, grammar: Grammar) -> tuple[str, ...]:
        return tuple(sorted(word for word in grammar.words() if not self.knows(word)))

    # -- StreamingRecogniser hooks -----------------------------------------

    def _apply_grammar(self, grammar: Grammar) -> None:
        missing = self.unknown_words(grammar)
        phrases = [p for p in grammar.phrases if not set(p.split()) & set(missing)]
        if not phrases:
            raise GrammarError(f"no phrase of the grammar can be recognised: unknown words {', '.join(missing)}")
        if self.accent_variants:
            self._add_variants(grammar.words() - set(missing))
        self._search_count += 1
        name = f"state{self._search_count}"
        if self.grammar_form == "fsg":
            graph = sentence_graph(phrases, self.sentence_weight)
            try:
                # A transition without a word is an epsilon (3-tuple) for pocketsphinx.
                transitions = [t if t[3] is not None else t[:3] for t in graph.transitions]
                fsg = self._decoder.create_fsg(name, graph.start, graph.final, transitions)
                self._decoder.add_fsg(name, fsg)
            except (ValueError, RuntimeError) as error:
                raise GrammarError(f"pocketsphinx rejected the grammar: {error}") from None
        else:
            self._add_jsgf(name, grammar, phrases, missing)
        self._decoder.activate_search(name)
        if self._search is not None:
            self._decoder.remove_search(self._search)
        self._search = name
        self._grammar = grammar
        self._phrases = [" ".join(p.split()) for p in phrases]
        self._sentences = frozenset(self._phrases)
        self.missing_words = missing

    def _add_variants(self, words: set[str]) -> None:
        """Teach the dictionary the accent variants of grammar words it has not seen yet."""
        additions: list[tuple[str, str]] = []
        for word in sorted(words - self._varied):
            self._varied.add(word)
            known = [p for p in (self._decoder.lookup_word(word if n == 1 else f"{word}({n})") for n in range(1, 8)) if p]
            wanted = list(ACCENT_VARIANTS.get(word, ()))
            if self.non_rhotic:
                wanted += [v for v in map(non_rhotic, known) if v is not None]
            number = len(known) + 1
            for phones in dict.fromkeys(wanted):
                if phones not in known:
                    additions.append((f"{word}({number})", phones))
                    known.append(phones)
                    number += 1
        for index, (name, phones) in enumerate(additions):
            # Rebuilding the search once, after the last word, is much quicker than after each.
            self._decoder.add_word(name, phones, index == len(additions) - 1)

    def _add_jsgf(self, name: str, grammar: Grammar, phrases: list[str], missing: tuple[str, ...]) -> None:
        jsgf_source = getattr(grammar, "jsgf", None)
        supplied = jsgf_source() if callable(jsgf_source) and not missing else None
        try:
            self._decoder.add_jsgf_string(name, supplied if supplied is not None else sentences_jsgf(phrases))
        except (ValueError, RuntimeError) as error:
            if supplied is None:
                raise GrammarError(f"pocketsphinx rejected the grammar: {error}") from None
            # The supplied JSGF uses syntax pocketsphinx refuses: fall back to the plain sentence list.
            self._decoder.add_jsgf_string(name, sentences_jsgf(phrases))

    def _preprocess(self, samples: np.ndarray) -> np.ndarray:
        return self._reducer.process(samples) if self._reducer is not None else samples

    def _flush_preprocess(self) -> np.ndarray:
        return self._reducer.flush() if self._reducer is not None else np.zeros(0, dtype=np.int16)

    def _reset_frontend(self) -> None:
        if self._reducer is not None:
            self._reducer.reset()

    def _start_utterance(self) -> None:
        self._buffer = []
        if not self.whole_utterance:
            self._decoder.start_utt()
            self._in_decoder = True

    def _feed(self, audio: np.ndarray) -> None:
        if self.whole_utterance:
            self._buffer.append(np.asarray(audio, dtype=np.int16))
        else:
            self._decoder.process_raw(np.ascontiguousarray(audio, dtype="<i2").tobytes(), False, False)

    def _abort_utterance(self) -> None:
        self._buffer = []
        if self._in_decoder:
            self._decoder.end_utt()
            self._in_decoder = False

    def _end_utterance(self) -> Heard:
        if not self.whole_utterance:
            self._decoder.end_utt()
            self._in_decoder = False
            self.last_evidence = None
            return self._result()
        audio = np.concatenate(self._buffer) if self._buffer else np.zeros(0, dtype=np.int16)
        self._buffer = []
        return self._judged(audio, self._decode(audio))

    def _early_result(self, checked_only: bool = False, confirm: bool = False) -> Heard | None:
        # Only the buffered (whole-utterance) decoding can look at the utterance so far and carry on.
        if not self.whole_utterance or not self._buffer:
            return None
        audio = np.concatenate(self._buffer)
        self._buffer = [audio]
        decoded = audio
        quiet = self._endpointer.quiet_frames * FRAME
        missing = round(self._endpointer.settings.hangover * 100) * FRAME - quiet
        if self.early_padding and 0 < quiet <= len(audio) and missing > 0:
            # Decode what the hangover would have handed over if the quiet goes on (the quiet heard so far,
            # repeated): confidences are calibrated on utterances with that much quiet at the end, and
            # without it chatter forced onto a command came back confident (benchmarks/asr.py).
            tail = audio[len(audio) - quiet:]
            decoded = np.concatenate([audio, np.tile(tail, missing // quiet + 1)[:missing]])
        heard = self._decode(decoded)
        if not heard.text or not self.ends_the_sentence(heard.text):
            return None
        confident = bool(heard.word_confidences) and min(heard.word_confidences) >= self.early_confidence
        if checked_only or (confirm and not confident):
            result = self._confirmed_early(decoded, heard)
        elif confident:
            result = self._judged(decoded, heard)
        else:
            return None
        if result is None or not result.text or not self.ends_the_sentence(result.text):
            # Nothing the game would act on so far: the player may not have finished ("option ... two" was
            # checked at "option", found to be nothing, and "two" was lost), so the hangover decides. Nor when
            # judging or the check settled on another sentence that a longer one continues: "play seven blue
            # two", the first half of a split, was carried out a second before the player had finished.
            return None
        self._buffer = []
        return result

    def _confirmed_early(self, audio: np.ndarray, heard: Heard) -> Heard | None:
        """In a loud room, or in noise (``_early_result``), ``heard`` (a whole sentence so far) as a result if
        another recogniser confirms it; None keeps listening. pocketsphinx alone cannot (``confirms_early`` is
        off)."""
        return None

    def _decode(self, audio: np.ndarray) -> Heard:
        """Decode one whole utterance under the current grammar."""
        self._decoder.start_utt()
        self._decoder.process_raw(np.ascontiguousarray(audio, dtype="<i2").tobytes(), False, True)
        self._decoder.end_utt()
        heard = self._result()
        if not heard.text:
            return heard
        levels = word_levels(audio, [(s.start_frame, s.end_frame) for s in self._decoder.seg() or ()
                                     if not _is_filler(s.word)])
        return replace(heard, word_levels=levels) if len(levels) == len(heard.text.split()) else heard

    def _judged(self, audio: np.ndarray, heard: Heard) -> Heard:
        """``heard`` weighed against the runner-up sentence (judging.py), when that is on."""
        self.last_evidence = None
        self.last_unjudged = heard
        if self.judging is None or not heard.text:
            return heard
        self.last_evidence = self.evidence(audio, heard.text)
        return judge(heard, self.last_evidence, self.judging)

    def evidence(self, audio: np.ndarray, text: str) -> Evidence:
        """Scores of ``audio`` (just decoded as ``text``) as that sentence and as the best other sentence."""
        best = self._path_score()
        frames = self._decoder.n_frames()
        runner_up, runner_up_score = "", float("-inf")
        others = [p for p in self._phrases if p != text]
        if others and self._search is not None:
            graph = sentence_graph(others, self.sentence_weight)
            transitions = [t if t[3] is not None else t[:3] for t in graph.transitions]
            self._decoder.add_fsg("runner-up", self._decoder.create_fsg("runner-up", graph.start, graph.final,
                                                                         transitions))
            self._decoder.activate_search("runner-up")
            self._run(audio)
            hypothesis = self._decoder.hyp()
            found = " ".join(_plain_word(w) for w in hypothesis.hypstr.split()) if hypothesis is not None else ""
            # A path that stops short of every other sentence can spell the heard one ("play seven green one
            # five", the start of "... five green two two"): that is no rival, and counted as one it made
            # every such reading a tie with itself, never sure.
            if found in self._sentences and found != text:
                runner_up, runner_up_score = found, self._path_score()
            self._decoder.activate_search(self._search)
            self._decoder.remove_search("runner-up")
        return Evidence(frames, best, runner_up, runner_up_score)

    def _run(self, audio: np.ndarray) -> None:
        self._decoder.start_utt()
        self._decoder.process_raw(np.ascontiguousarray(audio, dtype="<i2").tobytes(), False, True)
        self._decoder.end_utt()

    def _path_score(self) -> float:
        """ln acoustic score of the last decoding's best path (each frame relative to its best senone)."""
        total = 0.0
        for segment in self._decoder.seg() or ():
            if segment.end_frame >= segment.start_frame:
                total += math.log(segment.ascore) if segment.ascore > 0 else -50.0
        return total

    def _result(self) -> Heard:
        """The Heard of the utterance the decoder has just ended."""
        hypothesis = self._decoder.hyp()
        text = " ".join(_plain_word(w) for w in hypothesis.hypstr.split()) if hypothesis is not None else ""
        if not text:
            return Heard("")
        confidences = self._word_confidences()
        alternatives = self._alternatives(text)
        # A search that ends outside a final state returns a sentence cut short: never pass that on.
        complete = text in self._sentences
        if not complete or (confidences and min(confidences) < self.reject_below):
            return Heard("", (), (text, *alternatives)[: self.max_alternatives] if complete else alternatives)
        return Heard(text, confidences, alternatives)

    def word_scores(self) -> list[float]:
        """Acoustic score per frame of each word of the last result (fillers and silences left out)."""
        values: list[float] = []
        for segment in self._decoder.seg() or ():
            if _is_filler(segment.word):
                continue
            frames = max(1, segment.end_frame - segment.start_frame + 1)
            values.append(math.log(segment.ascore) / frames if segment.ascore > 0 else -50.0)
        return values

    def _word_confidences(self) -> tuple[float, ...]:
        return word_confidences(self.word_scores())

    def _alternatives(self, best: str) -> tuple[str, ...]:
        if self.max_alternatives <= 0:
            return ()
        found: list[str] = []
        top: float | None = None
        try:
            for index, hypothesis in enumerate(self._decoder.nbest()):
                if hypothesis is None or index >= 20 or len(found) >= self.max_alternatives:
                    break  # the binding yields None once the lattice has no more paths
                score = math.log(hypothesis.score) if hypothesis.score > 0 else -math.inf
                top = score if top is None else top
                if top - score > self.alternative_gap:
                    break  # n-best comes best first: the rest are further still
                text = " ".join(_plain_word(w) for w in hypothesis.hypstr.split())
                if not text or text == best or text in found:
                    continue
                if text not in self._sentences:
                    continue  # n-best paths can stop short of a whole sentence
                found.append(text)
        except (RuntimeError, ValueError):
            return ()
        return tuple(found)
