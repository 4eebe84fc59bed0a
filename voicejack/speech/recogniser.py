"""The recogniser interface every backend implements, and the streaming logic they share.

A recogniser listens to one continuous 16 kHz mono int16 stream (the
microphone, or a file cut into the same blocks), finds utterances in it
(see endpoint.py) and returns a Heard for each. It only ever listens for
the sentences of its current Grammar. A grammar change requested while an
utterance is in progress waits until that utterance ends: vosk aborts the
whole process on a mid-utterance switch, and a player's sentence should
be judged against the grammar it was started under anyway.

Ending early: the endpointer waits ``hangover`` (0.45 s) of quiet before
it closes an utterance, so a pause between the parts of a move does not
cut the player off. Most of the time the player has finished long before
that, so after ``early_end`` of quiet the backend is asked what it has
heard so far (``_early_result``); when that is a whole sentence of the
grammar, heard with confidence, and no longer sentence of the grammar
that means something else begins with it ("play seven red one" is the
start of "play seven red one five red two two", so that one waits; where
red one cannot split the seven, only "... seven" could follow, and it
does not, unless the sentence is a single word), the utterance ends there.
Otherwise the normal hangover decides. Each pause is tried once, and
only while the speech stands ``early_min_snr_db`` above the noise floor:
in louder noise the quiet parts of words (an s, the closure before a t)
sink below the floor and look like pauses, and decoding half a word gave
confidently wrong commands (benchmarks/asr.py at 10 dB). Under
``early_clean_snr_db`` (white noise at 20 dB, other talkers, music) the
pause must last ``early_end_noisy``: a 60 ms gap between two words was
enough there to end "option ... two" at "option", heard as "help".
Under ``early_min_snr_db`` (other talkers close by) pocketsphinx's own
confidence cannot be trusted, and a backend that can check the sentence
another way (``confirms_early``: the word model on Whisper's encoder) is
asked after ``early_end_loud`` of quiet instead. Above that level
(``confirms_unsure_early``) it also checks a whole sentence pocketsphinx
was not sure enough of to end there: in noise once the pause has lasted
``early_end_noisy``, in a quiet room after ``early_end``. In noise
(``confirms_sure_early``) that check decides even a sentence pocketsphinx
was sure of: a pause inside the player's sentence ended "what ... can i
say" at "what", heard surely as "last card", and "play ten green ...
four" among other talkers at a move never said.

Heard conventions for callers (voicejack.language):
- ``text == ""``: something was said but nothing in the grammar was
  recognised with enough confidence (say "didn't catch that"); its
  ``alternatives`` may still list in-grammar readings it might have been,
  as hints for a question, never to act on;
- ``word_confidences``: one per word of ``text``, 0..1;
- ``alternatives``: other in-grammar readings, best first, never
  repeating ``text``.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from voicejack.hearing import Grammar, Heard
from voicejack.speech.endpoint import Endpointer, EndpointSettings, Mark

# Quiet (seconds) after which a complete, confident sentence ends an utterance, and how far (dB) the speech
# must stand above the noise floor for so short a quiet to be trusted (benchmarks/asr.py).
EARLY_END = 0.06
EARLY_MIN_SNR_DB = 16.0
# ... and under EARLY_CLEAN_SNR_DB the quiet a pause needs (see "Ending early" above; models/README.md,
# eighteenth round).
EARLY_END_NOISY = 0.15
EARLY_CLEAN_SNR_DB = 28.0
# ... and under EARLY_MIN_SNR_DB, for a backend that confirms early results itself (nineteenth round).
EARLY_END_LOUD = 0.25


class SpeechError(Exception):
    """Base of the speech package's errors (each carries one clear message)."""


class GrammarError(SpeechError, ValueError):
    """A grammar no backend can use (empty, or no word of it known)."""


@runtime_checkable
class Recogniser(Protocol):
    """What the table's listening loop needs from a backend."""

    name: str

    def set_grammar(self, grammar: Grammar) -> None:
        """Listen for these sentences from the next utterance on (at once if none is in progress)."""

    def accept(self, samples: np.ndarray) -> Heard | None:
        """Feed int16 samples; returns a Heard when an utterance ends in them, else None."""

    def finish(self) -> Heard | None:
        """End of input: close and recognise an utterance in progress."""

    def reset(self) -> None:
        """Drop any utterance in progress (e.g. the player barged in on a prompt and we restart)."""

    @property
    def in_utterance(self) -> bool:
        """True while speech is being heard (grammar switches wait for it to end)."""


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the last result took: the endpointer's wait after speech, and decoding after that."""

    endpoint_wait_ms: float  # audio between the last loud frame and the end decision
    decode_ms: float  # wall time from the end decision to the Heard
    ended_early: bool = False  # closed after a short pause because the sentence was complete


class StreamingRecogniser(ABC):
    """Endpointing, deferred grammar switches and result queueing; backends fill in the decoding."""

    name = "streaming"

    def __init__(self, endpoint: EndpointSettings | None = None, early_end: float | None = EARLY_END) -> None:
        self._endpointer = Endpointer(endpoint)
        self.early_end = early_end  # seconds of quiet after which a complete sentence ends the utterance; None: off
        self.early_min_snr_db = EARLY_MIN_SNR_DB
        self.early_end_noisy: float | None = EARLY_END_NOISY  # the pause needed under early_clean_snr_db
        self.early_clean_snr_db = EARLY_CLEAN_SNR_DB
        self.early_end_loud: float | None = EARLY_END_LOUD  # the pause needed under early_min_snr_db ...
        self.confirms_early = False  # ... by a backend that checks early results another way; else never
        self.confirms_unsure_early = False  # that backend also checks a sentence heard unsure (after early_end_noisy)
        self.confirms_sure_early = False  # ... and, under early_clean_snr_db, a sentence heard sure as well
        self._early_tried = (-1, False)  # the pause (speech end sample) last tried, and whether confirming
        self._prefixes: tuple[Grammar, frozenset[str], frozenset[str]] | None = None
        self._grammar: Grammar | None = None
        self._pending_grammar: Grammar | None = None
        self._results: deque[Heard] = deque()
        self._decoding = False
        self.last_timing: Timing | None = None

    # -- public interface -------------------------------------------------

    @property
    def grammar(self) -> Grammar | None:
        return self._grammar

    @property
    def in_utterance(self) -> bool:
        return self._decoding

    @property
    def pending_grammar(self) -> Grammar | None:
        """A grammar waiting for the current utterance to end, if any."""
        return self._pending_grammar

    def set_grammar(self, grammar: Grammar) -> None:
        if not grammar.phrases:
            raise GrammarError("the grammar has no phrases to listen for")
        if self._decoding:
            self._pending_grammar = grammar
            return
        self._apply_grammar(grammar)

    def accept(self, samples: np.ndarray) -> Heard | None:
        for event in self._endpointer.push(self._preprocess(np.asarray(samples, dtype=np.int16))):
            self._handle(event.mark, event.audio, event.sample)
        self._try_early_end()
        return self._results.popleft() if self._results else None

    def finish(self) -> Heard | None:
        tail = self._flush_preprocess()
        for event in self._endpointer.push(tail) if len(tail) else []:
            self._handle(event.mark, event.audio, event.sample)
        for event in self._endpointer.flush():
            self._handle(event.mark, event.audio, event.sample)
        return self._results.popleft() if self._results else None

    def hear_room(self, samples: np.ndarray, learn_floor: bool = True) -> None:
        """Audio the game does not act on: the front end adapts to it and, with ``learn_floor``, the
        endpointer learns the room's background from it (nothing is detected or decoded). For the
        microphone before the first grammar, and (without the floor: it holds the game's echo) the echo
        guard after the game has spoken, so the first words said after its first prompt are heard."""
        if self._decoding or self._endpointer.in_speech:
            self.reset()
        cleaned = self._preprocess(np.asarray(samples, dtype=np.int16))
        if learn_floor:
            self._endpointer.learn_room(cleaned)

    def expect_answer(self) -> None:
        """The game has just stopped speaking and may be answered at once (Endpointer.expect_answer)."""
        self._endpointer.expect_answer()

    def reset(self) -> None:
        self._abort_utterance()
        self._decoding = False
        self._early_tried = (-1, False)
        self._endpointer.reset()
        self._results.clear()
        self._apply_pending()

    def new_stream(self) -> None:
        """A new input stream begins (a file, a reopened microphone): relearn the background noise."""
        self.reset()
        self._endpointer.reset(relearn=True)
        self._reset_frontend()

    def pending_results(self) -> list[Heard]:
        """Results not yet returned (two utterances ended within one block); empties the queue."""
        results = list(self._results)
        self._results.clear()
        return results

    # -- shared machinery -------------------------------------------------

    def _handle(self, mark: Mark, audio: np.ndarray, sample: int) -> None:
        if mark is Mark.START:
            if self._grammar is None:
                raise GrammarError("set_grammar() must be called before listening")
            self._start_utterance()
            self._decoding = True
            self._feed(audio)
        elif mark is Mark.AUDIO:
            if self._decoding and len(audio):
                self._feed(audio)
        elif mark is Mark.END and self._decoding:
            began = time.perf_counter()
            heard = self._end_utterance()
            self._finish_utterance(heard, sample, began, ended_early=False)

    def _finish_utterance(self, heard: Heard, speech_end: int, began: float, ended_early: bool) -> None:
        decode_ms = (time.perf_counter() - began) * 1000.0
        wait_ms = max(0.0, (self._endpointer.position - speech_end) / 16.0)
        self.last_timing = Timing(wait_ms, decode_ms, ended_early)
        self._decoding = False
        self._apply_pending()
        self._results.append(heard)

    def _try_early_end(self) -> None:
        if self.early_end is None or not self._decoding or not self._endpointer.in_speech:
            return
        quiet = self._endpointer.quiet_frames
        if quiet < round(self.early_end * 100):
            return  # checked first: the level below takes a median over the utterance
        over_floor = self._endpointer.speech_over_floor_db
        loud = over_floor < self.early_min_snr_db
        noisy = self.early_end_noisy
        long_enough = noisy is not None and quiet >= round(noisy * 100)
        checked_only = loud  # only the backend's own check may end it
        if loud:
            if not self.confirms_early or self.early_end_loud is None or quiet < round(self.early_end_loud * 100):
                return
            confirm = True
        elif over_floor < self.early_clean_snr_db:
            if noisy is not None and not long_enough:
                return
            confirm = self.confirms_unsure_early
            checked_only = self.confirms_sure_early
        else:
            # In a quiet room an unsure sentence may be confirmed as soon as a confident one ends (early_end):
            # the pauses inside words that made noise wait longer are heard as speech here.
            confirm = self.confirms_unsure_early
        attempt = (self._endpointer.speech_end_sample, confirm)
        if attempt == self._early_tried:
            return
        self._early_tried = attempt
        began = time.perf_counter()
        heard = self._early_result(checked_only, confirm)
        if heard is None:
            return
        self._finish_utterance(heard, self._endpointer.cut(), began, ended_early=True)

    def ends_the_sentence(self, text: str) -> bool:
        """True when ``text`` is a sentence of the current grammar that no longer sentence continues with
        another meaning (Grammar.complete)."""
        grammar = self._grammar
        if grammar is None:
            return False
        if self._prefixes is None or self._prefixes[0] is not grammar:
            sentences = frozenset(" ".join(p.split()) for p in grammar.phrases)
            prefixes = frozenset(
                " ".join(words[:n]) for words in (s.split() for s in sentences) for n in range(1, len(words))
            )
            self._prefixes = (grammar, sentences, prefixes)
        _, sentences, prefixes = self._prefixes
        words = " ".join(text.split())
        # A single word that longer sentences begin (a card named alone) still waits: table talk cut at its
        # first pause came out as one ("i think ... so" as "five", benchmarks/asr.py).
        return words in sentences and (words not in prefixes or (words in grammar.complete and " " in words))

    def _apply_pending(self) -> None:
        if self._pending_grammar is not None:
            grammar, self._pending_grammar = self._pending_grammar, None
            self._apply_grammar(grammar)

    def _preprocess(self, samples: np.ndarray) -> np.ndarray:
        """Hook for a front end that changes the audio before endpointing (identity by default)."""
        return samples

    def _flush_preprocess(self) -> np.ndarray:
        return np.zeros(0, dtype=np.int16)

    def _reset_frontend(self) -> None:
        """Hook: forget what the front end learnt about the previous stream."""

    # -- backend hooks ----------------------------------------------------

    @abstractmethod
    def _apply_grammar(self, grammar: Grammar) -> None:
        """Install a grammar; only called between utterances."""

    @abstractmethod
    def _start_utterance(self) -> None: ...

    @abstractmethod
    def _feed(self, audio: np.ndarray) -> None: ...

    @abstractmethod
    def _end_utterance(self) -> Heard: ...

    def _early_result(self, checked_only: bool = False, confirm: bool = False) -> Heard | None:
        """What was heard so far, if it is surely all the player meant to say; None: keep listening.

        The utterance stays open and fed either way; a backend that cannot tell returns None. ``checked_only``:
        only that backend's own check can end it (the speech stands under ``early_min_snr_db``, or under
        ``early_clean_snr_db`` for a backend that ``confirms_sure_early``); ``confirm``: that check may end a
        sentence heard unsure.
        """
        return None

    @abstractmethod
    def _abort_utterance(self) -> None:
        """Drop any audio the decoder holds; harmless when it holds none."""
