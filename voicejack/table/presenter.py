"""Everything the table tells its players: spoken (when there is a voice) and printed, with cues.

Nothing is conveyed only in text: every line printed is also spoken, and
every cue comes with words.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from voicejack.engine import GameState
from voicejack.engine.events import Event

if TYPE_CHECKING:
    from voicejack.audio.output import AudioOutput


class Presenter:
    """Speaks and prints. ``audio`` may be None (text only, e.g. tests or a missing speech engine)."""

    def __init__(self, audio: AudioOutput | None = None, write: Callable[[str], None] | None = None,
                 pace: bool = True) -> None:
        self.audio = audio
        self._write = write or _print
        self.pace = pace  # wait for speech to finish between bot turns, so nothing piles up
        self.last: list[str] = []

    def say(self, lines: str | Sequence[str], seat: str | None = None, interrupt: bool = False,
            remember: bool = True) -> None:
        """Say ``lines``; ``seat`` makes another player's news come from their direction."""
        items = [lines] if isinstance(lines, str) else list(lines)
        items = [line for line in items if line]
        if not items:
            return
        if remember:
            self.last = items
        for index, line in enumerate(items):
            self._write(line)
            if self.audio is not None:
                self.audio.speak(line, direction=seat, interrupt=interrupt and index == 0)

    def repeat(self) -> None:
        self.say(self.last, interrupt=True)

    def cue(self, name: str) -> None:
        if self.audio is not None:
            self.audio.cue(name)

    def events(self, events: Sequence[Event], before: GameState, listener: str | None) -> None:
        if self.audio is not None:
            self.audio.play_events(events, before, listener)

    def stop(self) -> None:
        if self.audio is not None:
            self.audio.stop()

    def settle(self, timeout: float = 60.0) -> None:
        """Let queued speech and cues finish (between bot turns)."""
        if self.audio is not None and self.pace:
            self.audio.wait_idle(timeout)

    def is_speaking(self) -> bool:
        return self.audio is not None and self.audio.is_speaking()

    def close(self) -> None:
        if self.audio is not None:
            self.audio.close()


def _print(line: str) -> None:
    try:
        print(line, flush=True)
    except BrokenPipeError:
        sys.stderr.close()
