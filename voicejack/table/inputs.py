"""Where players' words come from: the keyboard, the microphone, or a script (tests).

Every source pushes what it heard into one InputHub queue, so a voice seat
can also type, and the match loop waits in one place. In push-to-talk
mode (--listen push) an empty line typed at the terminal is the key that
opens the microphone, so it never reaches the game. A spoken result
carries the grammar it was heard under: when the position has moved on
since, the hub marks it stale, so it is never resolved as a move of the
new position.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import IO, Protocol

from voicejack.language import Grammar, Heard
from voicejack.speech.listening import ListeningGate, ListenMode


class EndOfInput:
    """Every source has ended (stdin closed, the script ran out)."""


END_OF_INPUT = EndOfInput()


@dataclass(frozen=True, slots=True)
class Utterance:
    """What one source heard, with the grammar the recogniser listened with (None: typed, fits any position)."""

    heard: Heard
    grammar: Grammar | None = None
    stale: bool = False  # heard under a grammar the game has since replaced


Push = Callable[["Utterance | EndOfInput"], None]


class InputSource(Protocol):
    live: bool  # True when a person may speak or type at any moment (not a script or a pipe)

    def start(self, push: Push) -> None: ...
    def set_grammar(self, grammar: Grammar) -> None: ...
    def close(self) -> None: ...


class InputHub:
    def __init__(self) -> None:
        self._queue: queue.Queue[Utterance | EndOfInput] = queue.Queue()
        self._sources: list[InputSource] = []
        self._ended = 0
        self._grammar: Grammar | None = None

    def add(self, source: InputSource) -> None:
        self._sources.append(source)
        source.start(self._receive)

    @property
    def gate(self) -> ListeningGate | None:
        """The microphone's listening gate ("stop listening", push to talk), if a microphone is in use."""
        for source in self._sources:
            gate = getattr(source, "gate", None)
            if isinstance(gate, ListeningGate):
                return gate
        return None

    def _receive(self, item: Utterance | EndOfInput) -> None:
        if isinstance(item, Utterance) and item.heard.typed and not item.heard.text.strip():
            gate = self.gate
            if gate is not None and gate.mode is ListenMode.PUSH and gate.push_to_talk():
                return
        self._queue.put(item)

    @property
    def live(self) -> bool:
        return any(source.live for source in self._sources)

    @property
    def ended(self) -> bool:
        return bool(self._sources) and self._ended >= len(self._sources)

    def expect(self, grammar: Grammar) -> None:
        """What may be said from now on, without asking a script for its next line (between turns)."""
        self._grammar = grammar
        for source in self._sources:
            if source.live:
                source.set_grammar(grammar)

    def listen(self, grammar: Grammar, timeout: float | None = None) -> Utterance | EndOfInput | None:
        """The next utterance, heard with ``grammar``; None when ``timeout`` passes in silence;
        END_OF_INPUT when every source has ended."""
        self._grammar = grammar
        for source in self._sources:
            source.set_grammar(grammar)
        while True:
            try:
                item = self._queue.get(timeout=timeout)
            except queue.Empty:
                return None
            if isinstance(item, EndOfInput):
                self._ended += 1
                if self.ended:
                    return END_OF_INPUT
                continue
            return self._checked(item)

    def waiting(self, timeout: float = 0.0) -> list[Utterance]:
        """Utterances already heard, waiting up to ``timeout`` seconds for the first one (only for live
        sources: a script is read on demand)."""
        items: list[Utterance] = []
        if not self.live:
            return items
        while True:
            try:
                item = self._queue.get(timeout=timeout) if timeout > 0 and not items else self._queue.get_nowait()
            except queue.Empty:
                return items
            if isinstance(item, EndOfInput):
                self._ended += 1
            else:
                items.append(self._checked(item))

    def _checked(self, item: Utterance) -> Utterance:
        heard_under, current = item.grammar, self._grammar
        if heard_under is None or current is None or only_gained_commands(heard_under, current):
            return item
        return Utterance(item.heard, heard_under, stale=True)

    def close(self) -> None:
        for source in self._sources:
            source.close()


def only_gained_commands(before: Grammar, now: Grammar) -> bool:
    """Every sentence of ``before`` may still be said, and all ``now`` adds are commands ("next" and "previous"
    once the board is being read out, yes and no once a question is open): what was heard under ``before``
    means what it meant, so it is not stale."""
    kept, current = set(before.phrases), set(now.phrases)
    return kept <= current and current - kept <= now.obeyed


class KeyboardSource:
    """Lines typed on a terminal (or piped in). Digits are allowed in typed input; an empty line is heard too."""

    def __init__(self, stream: IO[str], live: bool | None = None) -> None:
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self._thread: threading.Thread | None = None

    def start(self, push: Push) -> None:
        if self.live:
            self._thread = threading.Thread(target=self._read_all, args=(push,), daemon=True, name="keyboard")
            self._thread.start()
        else:
            self._push = push

    def _read_all(self, push: Push) -> None:
        for line in iter(self.stream.readline, ""):
            push(Utterance(Heard(line.strip(), typed=True)))
        push(END_OF_INPUT)

    def set_grammar(self, grammar: Grammar) -> None:
        if not self.live:
            # A pipe or file is read one line each time the game listens, so lines are never consumed early.
            line = self.stream.readline()
            self._push(Utterance(Heard(line.strip(), typed=True)) if line else END_OF_INPUT)

    def close(self) -> None:
        pass


class ScriptSource:
    """Typed lines from an iterable (possibly endless), one each time the game listens: for tests and demos."""

    live = False

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)

    def start(self, push: Push) -> None:
        self._push = push

    def set_grammar(self, grammar: Grammar) -> None:
        line = next(self._lines, None)
        self._push(Utterance(Heard(line, typed=True)) if line is not None else END_OF_INPUT)

    def close(self) -> None:
        pass
