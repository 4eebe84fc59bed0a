"""Everything the table tells its players: spoken (when there is a voice) and printed, with cues.

Nothing is conveyed only in text: every line printed is also spoken, and
every cue comes with words. The presenter is the only part of the table
that touches the audio output.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from voicejack.audio.cuenames import Cue
from voicejack.engine import GameState
from voicejack.engine.events import Event
from voicejack.engine.state import Rules

if TYPE_CHECKING:
    from voicejack.audio.output import AudioOutput
    from voicejack.table.settings import Settings

#: The cues the table plays itself (the turn and win cues come with the events, from the audio's sonifier).
ERROR_CUE: Final = Cue.TURNED_BACK
TURN_CUE: Final = Cue.YOUR_TURN
TICK_CUE: Final = Cue.TICK  # the turn timer's last seconds (ON11)
REPEAT_LIMIT: Final = 24  # lines kept for "say that again"


class Presenter:
    """Speaks and prints. ``audio`` may be None (text only, e.g. tests or a missing speech engine)."""

    def __init__(self, audio: AudioOutput | None = None, write: Callable[[str], None] | None = None,
                 pace: bool = True) -> None:
        self.audio = audio
        self._write = write or _print
        self.pace = pace  # wait for speech to finish between moves, so nothing piles up
        self.last: list[str] = []
        self.aside = ""  # a refusal since the last remembered line: "say that again" says it first
        self._fresh = True

    # What is said.

    def say(self, lines: str | Sequence[str], seat: str | None = None, interrupt: bool = False,
            remember: bool = True) -> None:
        """Say ``lines``; ``seat`` makes another player's news come from their direction.

        Remembered lines are what "say that again" repeats: everything since the last ``begin``.
        """
        items = [lines] if isinstance(lines, str) else list(lines)
        items = [line for line in items if line]
        if not items:
            return
        if remember:
            # At most REPEAT_LIMIT lines, but never less than the whole of one list (the options may be 40).
            self.last = items if self._fresh else (self.last + items)[-max(REPEAT_LIMIT, len(items)):]
            self._fresh = False
            self.aside = ""
        for index, line in enumerate(items):
            self._write(line)
            if self.audio is not None:
                self.audio.speak(line, direction=seat, interrupt=interrupt and index == 0)

    def refuse(self, reason: str) -> None:
        """Say why something was turned back. It changes nothing, so what "say that again" repeats stays, but
        the reason is said first: it is what a player who missed it asks for."""
        self.say(reason, remember=False)
        self.aside = reason

    def begin(self) -> None:
        """What is said next replaces what "say that again" repeats (a new answer, a new move)."""
        self._fresh = True
        self.aside = ""

    def forget(self) -> None:
        """Nothing to repeat any more (the question it held has been answered)."""
        self.last = []
        self._fresh = True
        self.aside = ""

    def repeat(self, nothing: str) -> None:
        """Say the last refusal, if any, and the remembered lines again at once; ``nothing`` when there are none."""
        aside = self.aside
        if aside:
            self.say(aside, interrupt=True, remember=False)
        if self.last:
            lines, self._fresh = self.last, True
            self.say(lines, interrupt=not aside)
            self.aside = aside  # repeating is no new answer: a second "say that again" says the same
        elif not aside:
            self.say(nothing, remember=False)

    def cue(self, name: str) -> None:
        if self.audio is not None:
            self.audio.cue(name)

    def events(self, events: Sequence[Event], before: GameState, listener: str | None) -> None:
        if self.audio is not None:
            self.audio.play_events(events, before, listener)

    def stop(self) -> None:
        if self.audio is not None:
            self.audio.stop()

    # How it sounds.

    def set_table(self, listener: str | None, rules: Rules) -> None:
        if self.audio is not None:
            self.audio.set_table(listener, rules)

    def apply(self, settings: Settings) -> None:
        """Rate, volumes and mono from the player's settings."""
        audio = self.audio
        if audio is None:
            return
        audio.set_rate(settings.speech_rate)
        audio.set_speech_volume(settings.speech_volume)
        audio.set_cue_volume(settings.cue_volume)
        audio.set_mono(settings.mono)

    # Time.

    def settle(self, timeout: float = 60.0) -> bool:
        """Let queued speech and cues play for up to ``timeout`` seconds; True once all of it has."""
        if self.audio is None or not self.pace:
            return True
        return self.audio.wait_idle(timeout)

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
