"""Where players' words come from: the keyboard, the microphone, or a script (tests).

Every source pushes Heard utterances into one InputHub queue, so a voice
seat can also type, and the match loop waits in one place.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from typing import IO, Protocol

from voicejack.language import Grammar, Heard


class EndOfInput:
    """Every source has ended (stdin closed, the script ran out)."""


END_OF_INPUT = EndOfInput()
Push = Callable[["Heard | EndOfInput"], None]


class InputSource(Protocol):
    live: bool  # True when a person may speak or type at any moment (not a script or a pipe)

    def start(self, push: Push) -> None: ...
    def set_grammar(self, grammar: Grammar) -> None: ...
    def close(self) -> None: ...


class InputHub:
    def __init__(self) -> None:
        self._queue: queue.Queue[Heard | EndOfInput] = queue.Queue()
        self._sources: list[InputSource] = []
        self._ended = 0

    def add(self, source: InputSource) -> None:
        self._sources.append(source)
        source.start(self._push)

    def _push(self, item: Heard | EndOfInput) -> None:
        self._queue.put(item)

    @property
    def live(self) -> bool:
        return any(source.live for source in self._sources)

    def listen(self, grammar: Grammar, timeout: float | None = None) -> Heard | EndOfInput | None:
        """The next utterance, heard with ``grammar``; None when ``timeout`` passes in silence;
        END_OF_INPUT when every source has ended."""
        for source in self._sources:
            source.set_grammar(grammar)
        while True:
            try:
                item = self._queue.get(timeout=timeout)
            except queue.Empty:
                return None
            if isinstance(item, EndOfInput):
                self._ended += 1
                if self._ended >= len(self._sources):
                    return END_OF_INPUT
                continue
            return item

    def waiting(self) -> list[Heard]:
        """Utterances already heard, without waiting (only for live sources: a script is read on demand)."""
        items: list[Heard] = []
        if not self.live:
            return items
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return items
            if isinstance(item, EndOfInput):
                self._ended += 1
            else:
                items.append(item)

    def close(self) -> None:
        for source in self._sources:
            source.close()


class KeyboardSource:
    """Lines typed on a terminal (or piped in). Digits are allowed in typed input."""

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
            self._pending = False

    def _read_all(self, push: Push) -> None:
        for line in iter(self.stream.readline, ""):
            if line.strip():
                push(Heard(line.strip(), typed=True))
        push(END_OF_INPUT)

    def set_grammar(self, grammar: Grammar) -> None:
        if not self.live:
            # A pipe or file is read one line each time the game listens, so lines are never consumed early.
            line = self.stream.readline()
            while line and not line.strip():
                line = self.stream.readline()
            self._push(Heard(line.strip(), typed=True) if line else END_OF_INPUT)

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
        self._push(Heard(line, typed=True) if line is not None else END_OF_INPUT)

    def close(self) -> None:
        pass
