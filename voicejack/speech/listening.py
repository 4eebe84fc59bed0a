"""Listening modes: which of the things the microphone hears the game may act on.

    open   everything heard under the grammar of the moment (the default)
    wake   only what follows the wake word: "jackaroo, read the board" in one
           breath, or "jackaroo" alone and then, after a tick, the command
    push   only the one utterance after the player opens the microphone (a key)

and, in any mode, paused ("stop listening"): nothing but a phrase that
resumes listening ("start listening", after the wake word in wake mode).

The gate sits on the listening thread between the recogniser and the game
(VoiceInput), so what it drops never reaches the command language: chatter
at the table does nothing at all, not even "didn't catch that". It knows
no command words: the table hands it the phrases that resume listening.

Wake mode listens with the grammar of the moment twice over, once with the
wake word in front of every sentence and once without, plus the wake word
alone and the wake word followed by the first word of any sentence. The
sentences without it are there to catch chatter: speech that does not
begin with the wake word lands on one of them (and is dropped) instead of
being forced onto "jackaroo ...". A reading that does begin with it still
needs the wake word's own confidence to reach the sensitivity's threshold
(``WakeWord.needed_confidence``). The wake word and a first word alone
("jackaroo the") count as the wake word alone: among other talkers the
talk after the wake word was decoded as the start of a sentence cut short,
which pocketsphinx never passes on, and the wake word was lost with it
(benchmarks/listening.py: the wake word taken in babble 46% -> 71%).
Said alone, with others talking on, the wake word also came out followed
by a whole short sentence ("jackaroo no", "jackaroo help") made of the
others' voices: that too is the wake word alone when the words after it
are far quieter than the wake word (``Heard.word_levels``), or when the
judging found the wake word alone fitting about as well.

Time in the gate is audio heard (blocks fed while the game is not
speaking), not the wall clock: the seconds the player has to start a
command after the wake word or the key never run out while the game's own
voice has the microphone muted.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from voicejack.hearing import Grammar, Heard
from voicejack.speech.audio import SAMPLE_RATE

DEFAULT_WAKE_WORD: Final = "jackaroo"
DEFAULT_SENSITIVITY: Final = 0.5
#: Heard seconds after the wake word alone (or the key) in which the command must begin.
WAKE_WINDOW_S: Final = 5.0
PUSH_WINDOW_S: Final = 5.0
#: A paused microphone resumes only on a resume phrase whose every word is at least this sure.
RESUME_CONFIDENCE: Final = 0.6
#: The wake word's confidence needed at sensitivity 0 and at sensitivity 1 (linear in between). Said alone,
#: the wake word scores 0.15-0.4 for most espeak-ng voices. benchmarks/listening.py --quick, 35 utterances
#: with the wake word per part and room: taken in quiet 86 / 97 / 100 % (tuning) and 83 / 91 / 97 % (held
#: out) at sensitivity 0 / 0.5 / 1; chatter never obeyed at any of them, taken for the wake word alone (a
#: tick, nothing done) in 0-2.6 % of 38 lines at 0 and 0.5, up to 5.3 % at 1.
STRICTEST: Final = 0.3
LOOSEST: Final = 0.0

#: Words after the wake word whose loudest is this many dB below the wake word are taken for the room, not the
#: player: said alone in babble or music, the wake word came out as "jackaroo no" (or "two", "help") with the
#: last word 10-27 dB below it; said in one breath with the command, the command's loudest word was at most
#: 9.8 dB below it, and all but one of 211 within 7 dB (benchmarks/listening.py's wake corpus, tuning part,
#: 60 positions, every room).
REST_BELOW_WAKE_DB: Final = 9.0

#: How the wake word may be spelled for a recogniser whose vocabulary lacks it (a vosk model's fixed
#: vocabulary): words that sound the same, tried in order; the first whose words it knows is used.
SOUND_ALIKES: Final[dict[str, tuple[str, ...]]] = {
    "jackaroo": ("jack a roo", "jacka roo", "jack a rue", "jacker rue"),
}


class ListenMode(StrEnum):
    OPEN = "open"
    WAKE = "wake"
    PUSH = "push"


class GateEvent(StrEnum):
    """What the gate tells the table (on the listening thread, or on the thread that pressed the key)."""

    OPENED = "opened"        # push: the key opened the microphone for one utterance
    WOKE = "woke"            # wake: the wake word alone, the command may follow
    CLOSED = "closed"        # push: the utterance was heard, the microphone is closed again
    TIMED_OUT = "timed_out"  # the seconds after the key or the wake word passed with nothing said


class WakeWordError(ValueError):
    """A wake word that is not a word, or one the recogniser cannot hear."""


@dataclass(frozen=True, slots=True)
class WakeWord:
    """The wake word and its sensitivity: 0 takes only a very clear wake word, 1 anything that could be it."""

    word: str = DEFAULT_WAKE_WORD
    sensitivity: float = DEFAULT_SENSITIVITY

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z']+( [a-z']+)*", self.word):
            raise WakeWordError(f"the wake word must be one or more words of plain letters, not {self.word!r}")
        if not 0.0 <= self.sensitivity <= 1.0:
            raise WakeWordError(f"the wake word's sensitivity is between 0 and 1, not {self.sensitivity}")

    @classmethod
    def of(cls, word: str, sensitivity: float = DEFAULT_SENSITIVITY) -> WakeWord:
        """From what a player typed: any case, extra spaces and a trailing comma forgiven."""
        return cls(" ".join(word.lower().replace(",", " ").split()), sensitivity)

    @property
    def needed_confidence(self) -> float:
        return STRICTEST + (LOOSEST - STRICTEST) * self.sensitivity

    def spelled_for(self, knows: Callable[[str], bool] | None) -> tuple[str, ...]:
        """The wake word as words the recogniser knows (WakeWordError when there are none)."""
        if knows is None or all(knows(word) for word in self.word.split()):
            return tuple(self.word.split())
        for spelling in SOUND_ALIKES.get(self.word, ()):
            if all(knows(word) for word in spelling.split()):
                return tuple(spelling.split())
        raise WakeWordError(f"the speech recogniser does not know the word {self.word!r}; choose a wake word "
                            "from its dictionary, for example computer")


class ListeningGate:
    """Decides, utterance by utterance, whether what was heard goes to the game. Thread-safe."""

    def __init__(
        self,
        mode: ListenMode = ListenMode.OPEN,
        wake: WakeWord | None = None,
        resume_phrases: Iterable[str] = (),
        knows: Callable[[str], bool] | None = None,
        on_event: Callable[[GateEvent], None] | None = None,
        wake_window: float = WAKE_WINDOW_S,
        push_window: float = PUSH_WINDOW_S,
    ) -> None:
        self.mode = mode
        self.wake = wake or WakeWord()
        self.wake_words = self.wake.spelled_for(knows) if mode is ListenMode.WAKE else tuple(self.wake.word.split())
        self.resume_phrases = frozenset(" ".join(p.split()) for p in resume_phrases)
        self.on_event = on_event
        self._wake_window = round(wake_window * SAMPLE_RATE)
        self._push_window = round(push_window * SAMPLE_RATE)
        self._lock = threading.Lock()
        self._paused = False
        self._window_left = 0  # heard samples left to begin an utterance after the key or the wake word alone
        self._open_utterance = False  # an utterance began while the window was open: it is let through
        self._in_utterance = False  # the recogniser was in an utterance at the last block
        self._listened: OrderedDict[Grammar, Grammar] = OrderedDict()  # listened-with grammar -> the game's

    # -- the game thread ----------------------------------------------------

    @property
    def paused(self) -> bool:
        return self._paused

    def pause(self) -> bool:
        """"stop listening": False when it was already paused."""
        with self._lock:
            was, self._paused = self._paused, True
            self._window_left, self._open_utterance = 0, False
        return not was

    def resume(self) -> bool:
        """"start listening": False when it was not paused."""
        with self._lock:
            was, self._paused = self._paused, False
        return was

    def push_to_talk(self) -> bool:
        """The key: open the microphone for one utterance (push mode only; False otherwise)."""
        if self.mode is not ListenMode.PUSH:
            return False
        with self._lock:
            self._window_left = self._push_window
        self._tell([GateEvent.OPENED])
        return True

    @property
    def waiting_for_command(self) -> bool:
        """The key was pressed or the wake word said alone, and the command has not come yet."""
        return self._window_left > 0 or self._open_utterance

    def listened_grammar(self, grammar: Grammar) -> Grammar:
        """The grammar the recogniser listens with for the game's ``grammar``."""
        if self.mode is not ListenMode.WAKE:
            return grammar
        wake = " ".join(self.wake_words)
        starts = dict.fromkeys(p.split()[0] for p in grammar.phrases if p.split())

        def woken(group: frozenset[str]) -> frozenset[str]:
            """``group`` said alone or after the wake word."""
            return group | frozenset(f"{wake} {p}" for p in group)

        listened = Grammar((*grammar.phrases, *(f"{wake} {p}" for p in grammar.phrases), wake,
                            *(f"{wake} {word}" for word in starts if word not in grammar.phrases)),
                           woken(grammar.obeyed), woken(grammar.confirmed), woken(grammar.refused),
                           woken(grammar.complete), woken(grammar.read_out),
                           tuple(woken(answer) for answer in grammar.answers), woken(grammar.asks),
                           tuple(woken(move) for move in grammar.moves))
        with self._lock:
            self._listened[listened] = grammar
            while len(self._listened) > 8:
                self._listened.popitem(last=False)
        return listened

    def game_grammar(self, listened: Grammar | None) -> Grammar | None:
        """The game's grammar a result heard under ``listened`` belongs to."""
        if listened is None or self.mode is not ListenMode.WAKE:
            return listened
        with self._lock:
            return self._listened.get(listened, listened)

    # -- the listening thread -----------------------------------------------

    def advance(self, samples: int, in_utterance: bool) -> None:
        """Called for each block the microphone hears (not while it is muted), before it is fed:
        the seconds after the key or the wake word run, and an utterance that begins in them is let through."""
        events: list[GateEvent] = []
        with self._lock:
            began = in_utterance and not self._in_utterance
            ended = self._in_utterance and not in_utterance
            self._in_utterance = in_utterance
            if ended and self._open_utterance:
                self._open_utterance = False  # dropped without a result (the game began to speak): wait on
            if began and self._window_left > 0:
                self._open_utterance = True
                self._window_left = 0
            elif self._window_left > 0 and not in_utterance:
                self._window_left = max(0, self._window_left - samples)
                if self._window_left == 0:
                    events.append(GateEvent.TIMED_OUT)
        self._tell(events)

    def admit(self, heard: Heard, listened: Grammar | None = None) -> Heard | None:
        """What the game should hear of ``heard`` (the wake word taken off), or None to ignore it.

        ``listened`` is the grammar it was heard under, when known: in wake mode, the wake word followed by
        no whole sentence of the game's (the first word of one, then noise or talk) counts as the wake word
        alone."""
        events: list[GateEvent] = []
        with self._lock:
            game = self._listened.get(listened) if listened is not None else None
            command = self._for_the_game(heard, events, game)
            if command is not None and self._paused and not self._resumes(command):
                command = None
        self._tell(events)
        return command

    def _for_the_game(self, heard: Heard, events: list[GateEvent], game: Grammar | None) -> Heard | None:
        expected = self._open_utterance
        if self.mode is ListenMode.OPEN:
            return heard
        if self.mode is ListenMode.PUSH:
            if not expected:
                return None  # the microphone was closed when this began
            self._window_left, self._open_utterance = 0, False
            events.append(GateEvent.CLOSED)
            return heard
        rest = self._after_wake_word(heard)
        if rest is not None and rest.text and (game is not None and rest.text not in game.phrases
                                               or self._only_the_room_after(heard)):
            rest = Heard("")  # "jackaroo the ...": the rest was lost in the noise, or is still to come
        if rest is not None and not rest.text:
            # The wake word alone: the command may follow within the window.
            self._window_left, self._open_utterance = self._wake_window, False
            events.append(GateEvent.WOKE)
            return None
        self._window_left, self._open_utterance = 0, False
        if rest is not None:
            return rest
        return heard if expected else None

    def _after_wake_word(self, heard: Heard) -> Heard | None:
        """``heard`` without the wake word in front, or None when it does not begin with a sure wake word."""
        words = heard.text.split()
        size = len(self.wake_words)
        if tuple(words[:size]) != self.wake_words:
            return None
        sure = heard.word_confidences[:size]
        if sure and min(sure) < self.wake.needed_confidence:
            return None
        wake = " ".join(self.wake_words) + " "
        alternatives = [a[len(wake):] if a.startswith(wake) else a for a in heard.alternatives]
        rest = " ".join(words[size:])
        kept = tuple(a for a in dict.fromkeys(alternatives) if a != rest and a != wake.strip())
        return Heard(rest, heard.word_confidences[size:], kept if rest else (), heard.typed, heard.word_levels[size:],
                     heard.doubted)

    def _only_the_room_after(self, heard: Heard) -> bool:
        """Whether what was heard after the wake word was more likely the room than the player: the wake word
        alone fits about as well (the judging's runner-up, or the first search lost it), or the words after
        it are far quieter than the wake word was said."""
        size = len(self.wake_words)
        if " ".join(self.wake_words) in heard.alternatives:
            return True
        levels = heard.word_levels
        if len(levels) != len(heard.text.split()) or len(levels) <= size:
            return False
        return max(levels[size:]) < max(levels[:size]) - REST_BELOW_WAKE_DB

    def _resumes(self, command: Heard) -> bool:
        if " ".join(command.text.split()) not in self.resume_phrases:
            return False
        return not command.word_confidences or min(command.word_confidences) >= RESUME_CONFIDENCE

    def _tell(self, events: list[GateEvent]) -> None:
        if self.on_event is not None:
            for event in events:
                self.on_event(event)
