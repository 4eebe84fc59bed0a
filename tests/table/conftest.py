from __future__ import annotations

import itertools
from collections.abc import Iterable
from pathlib import Path

import pytest

from voicejack.audio.sonifier import Sonifier
from voicejack.engine import GameState, make_rules, new_game
from voicejack.engine.state import Seat
from voicejack.table.inputs import InputHub, ScriptSource
from voicejack.table.match import Match, MatchConfig
from voicejack.table.presenter import Presenter
from voicejack.table.settings import Settings


class Transcript(Presenter):
    """A text-only presenter that also keeps every cue (the table's own, and those the audio's sonifier
    makes from a move's events), so tests can hear what a player would."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.cues: list[str] = []
        self.sonifier: Sonifier | None = None
        super().__init__(None, write=self.lines.append)

    def set_table(self, listener, rules) -> None:
        self.sonifier = Sonifier(listener, rules)

    def cue(self, name: str) -> None:
        self.cues.append(name)
        self.lines.append(f"<cue {name}>")

    def events(self, events, before, listener) -> None:
        assert self.sonifier is not None, "set_table comes first"
        for scheduled in self.sonifier.timeline(events, before):
            if not scheduled.cue.startswith("step"):
                self.cues.append(scheduled.cue)
                self.lines.append(f"<cue {scheduled.cue}>")

    def stop(self) -> None:
        self.lines.append("<stop>")

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def two_player_state(seed: int = 5, mode: str = "regular") -> GameState:
    state, _ = new_game(make_rules(2, False, mode), seed=seed,
                        seats=(Seat("red", "You", "human"), Seat("green", "Green", "bot")))
    return state


def run_match(state: GameState, lines: Iterable[str], save: Path, settings: Settings | None = None,
              announce: bool = True, on_settings=None):
    hub = InputHub()
    hub.add(ScriptSource(lines))
    transcript = Transcript()
    match = Match(state, transcript, hub, MatchConfig(save, settings=settings or Settings(), on_settings=on_settings))
    outcome = match.run(announce_start=announce)
    return match, outcome, transcript


ALWAYS_FIRST_OPTION = ("options", "1", "yes")


class Kit:
    """The helpers above, handed to tests as one fixture (conftest modules are not importable)."""

    Transcript = Transcript
    two_player_state = staticmethod(two_player_state)
    run_match = staticmethod(run_match)

    @staticmethod
    def always_first_option():
        return itertools.cycle(ALWAYS_FIRST_OPTION)


@pytest.fixture
def kit() -> type[Kit]:
    return Kit
