"""Real positions for the command-language tests, as table dicts (shared/spec/table-format.md)."""

from __future__ import annotations

from typing import Any

from voicejack.engine import GameState
from voicejack.tablefile import table_from_dict

HOME4 = ["home", "home", "home", "home"]


def table(
    hands: dict[str, list[str]],
    marbles: dict[str, list[Any]],
    turn: str = "red",
    mode: str = "regular",
    teams: bool = True,
    **extra: Any,
) -> GameState:
    colours = list(hands)
    data: dict[str, Any] = {
        "format": "voicejack-table/1",
        "mode": mode,
        "players": [{"colour": c, "hand": hands[c]} for c in colours],
        "marbles": {c: marbles.get(c, HOME4) for c in colours},
        "turn": turn,
        **extra,
    }
    if len(colours) == 4:
        data["teams"] = teams
    return table_from_dict(data)


def others(card: str = "9") -> dict[str, list[str]]:
    return {"blue": [card], "green": [card], "yellow": [card]}


POSITIONS: dict[str, GameState] = {
    # The guide's first turn: all home, K 6 4 9 -> only "play king out".
    "start": table({"red": ["K", "6", "4", "9"], **others("2")}, {}),
    # A busy middle game: red 1 on 10, red 2 on 30; green 1 (partner) on 39 is nine ahead of red 2.
    "mid": table(
        {"red": ["9", "7", "A", "J"], **others("2")},
        {"red": [10, 30, "home", "home"], "blue": [25, "home", "home", "home"],
         "green": [39, "home", "home", "home"], "yellow": [50, "home", "home", "home"]},
    ),
    # Two of a walking card and the 4: queen on both marbles, 4 on both.
    "walks": table(
        {"red": ["Q", "Q", "4", "2"], **others("3")},
        {"red": [5, 44, "home", "home"], "blue": [60, "home", "home", "home"]},
    ),
    # The guide's wall example: red on 30, blue wall 31-32; queen blocked, ace one captures.
    "wall": table(
        {"red": ["Q", "A"], **others("2")},
        {"red": [30, "home", "home", "home"], "blue": [31, 32, "home", "home"]},
    ),
    # The guide's 7 example: red 1 in safe place 1, red 2 five short of the safe zone.
    "seven_safe": table(
        {"red": ["7"], **others("9")},
        {"red": ["safe 1", 71, "home", "home"]},
        teams=False,
    ),
    # Own capture: red 1 on 10 lands on red 2 on 13 with a 3.
    "own_capture": table(
        {"red": ["3", "8"], **others("9")},
        {"red": [10, 13, "home", "home"]},
    ),
    # R29: red 1 stuck behind blue's marble on its own base; nothing moves, burn one card.
    "burn_one": table(
        {"red": ["2", "3", "9", "Q"], **others("5")},
        {"red": [17, "home", "home", "home"], "blue": [19, "home", "home", "home"]},
    ),
    # R30: all home, no ace or king: burn the whole hand.
    "burn_hand": table({"red": ["2", "3", "9", "Q"], **others("5")}, {}),
    # R35: a ten forced blue to burn.
    "forced": table(
        {"red": ["5"], "blue": ["3", "8", "Q"], "green": ["2"], "yellow": ["6"]},
        {"red": [10, "home", "home", "home"], "blue": [40, "home", "home", "home"]},
        turn="blue", mode="complex", forced_burn=True,
    ),
    # Complex: king out or sweep, 5 on any marble, 10 walk or force a burn.
    "complex": table(
        {"red": ["K", "5", "10"], **others("6")},
        {"red": [5, "home", "home", "home"], "blue": [12, "home", "home", "home"],
         "green": [60, "home", "home", "home"]},
        mode="complex",
    ),
    # R36: red has all four in; red's cards move green's marbles.
    "partner": table(
        {"red": ["9", "A"], **others("2")},
        {"red": ["safe 1", "safe 2", "safe 3", "safe 4"], "green": [40, 50, "home", "home"]},
    ),
    # Two players: red against green.
    "two": table(
        {"red": ["8", "J"], "green": ["5", "6"]},
        {"red": [3, 20, "home", "home"], "green": [45, "home", "home", "home"]},
    ),
    # Won: nothing is offered.
    "over": table(
        {"red": ["8"], "green": ["5"]},
        {"red": ["safe 1", "safe 2", "safe 3", "safe 4"], "green": [45, "home", "home", "home"]},
        winner="red",
    ),
}
