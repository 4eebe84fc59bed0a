"""Positions for the bot tests, written as table files (shared/spec/table-format.md) are."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from voicejack.engine import GameState
from voicejack.tablefile import table_from_dict

Position = int | str


def build_table(
    marbles: Mapping[str, Sequence[Position]],
    hands: Mapping[str, Sequence[str]],
    turn: str = "red",
    players: int = 2,
    teams: bool = False,
    mode: str = "regular",
    **extra: object,
) -> GameState:
    """A position: marbles per colour (padded with "home"), every hand given, the pile the rest of the deck."""
    colours = ("red", "green") if players == 2 else ("red", "blue", "green", "yellow")
    data: dict[str, object] = {
        "format": "voicejack-table/1",
        "mode": mode,
        "players": [{"colour": c, "hand": list(hands.get(c, []))} for c in colours],
        "marbles": {c: [*marbles.get(c, []), *["home"] * (4 - len(marbles.get(c, [])))] for c in colours},
        "turn": turn,
        **extra,
    }
    if players == 4:
        data["teams"] = teams
    return table_from_dict(data)


@pytest.fixture
def table() -> Callable[..., GameState]:
    return build_table
