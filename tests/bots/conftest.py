"""Positions for the bot tests, written as table files (shared/spec/table-format.md) are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from voicejack.engine import GameState, Move, legal_moves
from voicejack.tablefile import table_from_dict

Position = int | str


def table(
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


def phrase_of(moves: list[Move], move: Move) -> str:
    assert move in moves, "a bot must answer with one of the legal moves"
    return move.phrase


def phrases(state: GameState) -> set[str]:
    return {move.phrase for move in legal_moves(state)}
