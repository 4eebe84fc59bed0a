"""The table protocol (docs/protocol.md): JSON messages, versioned, small, and what each seat may see.

Both sides use this module: the server builds views and event lists, the
client reads them back into a GameState it can narrate. Nothing here does I/O.
"""

from __future__ import annotations

import dataclasses
import typing
import json
import random
from typing import Any, Final

from voicejack.engine import GameState, LastCard, Move, MoveKind, Rules
from voicejack.engine import events as ev
from voicejack.engine.board import COLOUR_INDEX, HOME, SAFE_OFFSET, TRACK_CELLS, position_to_text
from voicejack.engine.rulesets import VOICEJACK
from voicejack.engine.state import Seat

VERSION: Final = 1
#: The largest message either side accepts; a table view is about 1.5 KB.
MAX_MESSAGE_BYTES: Final = 16 * 1024
MAX_NAME_CHARS: Final = 32
#: What the client puts in the hands it cannot see: only their sizes are real.
HIDDEN_CARD: Final = "2"

#: The WebSocket close code (and reason) of a connection whose seat was taken up on another connection with
#: the same token: that client must not reconnect, or the two would take the seat from each other for ever.
CLOSE_REPLACED: Final = 4001
REPLACED: Final = "the seat was taken up on another connection"

CLIENT_TYPES: Final = ("create", "join", "rejoin", "watch", "move", "undo", "ready", "leave")


class ProtocolError(ValueError):
    """A message that breaks the protocol; ``code`` is the error code sent back (docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def encode(message: dict[str, Any]) -> str:
    return json.dumps({"v": VERSION, **message}, separators=(",", ":"), ensure_ascii=False)


def decode(raw: str | bytes) -> dict[str, Any]:
    """One client message, checked for size, JSON, version and type (fields are checked by their handler)."""
    if isinstance(raw, bytes):
        raise ProtocolError("bad_message", "messages are JSON text frames, not binary")
    if len(raw.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_big", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
    try:
        message = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("bad_message", "that is not JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError("bad_message", "a message is one JSON object")
    if message.get("v") != VERSION:
        raise ProtocolError("version", f"this server speaks protocol version {VERSION}")
    if message.get("type") not in CLIENT_TYPES:
        raise ProtocolError("bad_message", f"unknown message type; known: {', '.join(CLIENT_TYPES)}")
    return message


def text_field(message: dict[str, Any], key: str, limit: int = 200, required: bool = True) -> str | None:
    value = message.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise ProtocolError("bad_message", f"'{key}' must be a non-empty string of at most {limit} characters")
    return value.strip()


def int_field(message: dict[str, Any], key: str, required: bool = True) -> int | None:
    value = message.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**32:
        raise ProtocolError("bad_message", f"'{key}' must be a whole number from 0")
    return value


def seconds_field(message: dict[str, Any], key: str) -> float | None:
    """An optional number of seconds, from 0 (absent: None)."""
    value = message.get(key)
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 3600:
        raise ProtocolError("bad_message", f"'{key}' must be a number of seconds from 0 to 3600")
    return float(value)


# --------------------------------------------------------------------------
# Views: what one seat (or a spectator) may know


def _position(position: int) -> int | str:
    return position if 0 <= position < TRACK_CELLS else position_to_text(position)


def view_of(state: GameState, moves: int, you: str | None, seats: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The table as ``you`` may see it: every public fact, your own hand, the sizes of the others'.

    Never the other hands, the pile order, the discard order or the generator state.
    ``seats`` adds what the server knows about each seat (connected, who controls it).
    """
    last = state.last_card
    return {
        "moves": moves,
        "mode": state.rules.mode,
        "rules": state.rules.rule_set,
        "turn_seconds": state.rules.timer_seconds,
        "teams": state.rules.teams,
        "players": [
            {"colour": seat.colour, "name": seat.name, "kind": seat.kind, "cards": len(state.hands[seat.colour]),
             **seats.get(seat.colour, {})}
            for seat in state.seats
        ],
        "marbles": {
            colour: [_position(state.marbles[COLOUR_INDEX[colour] * 4 + n]) for n in range(4)]
            for colour in state.rules.seats
        },
        "turn": state.turn,
        "dealer": state.dealer,
        "deal": state.deal_index,
        "forced_burn": state.forced_burn,
        "pile": len(state.pile),
        "last_card": None if last is None else _last_card_to_json(last),
        "winner": None if state.winner is None else list(state.winner),
        "you": you,
        "hand": list(state.hands[you]) if you is not None else None,
    }


def _move_to_json(move: Move) -> dict[str, Any]:
    return {"card": move.card, "kind": move.kind.value, "marble": move.marble, "steps": move.steps,
            "second": move.second, "second_steps": move.second_steps}


def _move_from_json(data: dict[str, Any]) -> Move:
    return Move(data["card"], MoveKind(data["kind"]), data["marble"], data["steps"], data["second"], data["second_steps"])


def _last_card_to_json(last: LastCard) -> dict[str, Any]:
    move = getattr(last, "move", None)  # the engine is moving to a LastCard that holds its Move
    return {"colour": last.colour, "card": last.card, "phrase": last.phrase,
            "move": _move_to_json(move) if isinstance(move, Move) else None}


def _last_card_from_json(data: dict[str, Any]) -> LastCard:
    names = {item.name for item in dataclasses.fields(LastCard)}
    fields: dict[str, Any] = {"colour": data["colour"], "card": data["card"]}
    if "move" in names and data.get("move") is not None:
        fields["move"] = _move_from_json(data["move"])
    if "phrase" in names:
        fields["phrase"] = data["phrase"]
    return LastCard(**fields)


def encode_for_each(message: dict[str, Any], view: dict[str, Any], state: GameState,
                    receivers: list[str | None]) -> dict[str | None, str]:
    """``message`` with ``view`` (made for nobody) as each receiver may see it, as encoded text.

    The shared part is encoded once: only "you" and "hand" differ between seats, and they come last.
    """
    public = {key: value for key, value in view.items() if key not in ("you", "hand")}
    head = encode({**message, "view": public})[:-2]  # without the closing "}}"
    texts: dict[str | None, str] = {}
    for you in receivers:
        if you not in texts:
            hand = None if you is None else list(state.hands[you])
            texts[you] = f'{head},"you":{json.dumps(you)},"hand":{json.dumps(hand)}}}}}'
    return texts


def _read_position(value: Any) -> int:
    if isinstance(value, int) and 0 <= value < TRACK_CELLS:
        return value
    if value == "home":
        return HOME
    if isinstance(value, str) and value.startswith("safe ") and value[5:].isdigit():
        return SAFE_OFFSET + int(value[5:])
    raise ProtocolError("bad_message", f"bad marble position {value!r}")


def state_from_view(view: dict[str, Any]) -> GameState:
    """A GameState a client can narrate and resolve commands on: real public facts and own hand,
    placeholder cards (HIDDEN_CARD) of the right count in every other hand and in the pile."""
    players = view["players"]
    colours = tuple(str(p["colour"]) for p in players)
    try:
        rules = Rules(mode=str(view["mode"]), teams=bool(view["teams"]), seats=colours,
                      rule_set=str(view.get("rules", VOICEJACK)), turn_seconds=view.get("turn_seconds"))
    except ValueError as error:
        raise ProtocolError("bad_message", f"the table's rules: {error}") from None
    you = view.get("you")
    hands = {
        str(p["colour"]): (list(view["hand"]) if p["colour"] == you else [HIDDEN_CARD] * int(p["cards"]))
        for p in players
    }
    marbles = [HOME] * 16
    for colour, positions in view["marbles"].items():
        for number, value in enumerate(positions):
            marbles[COLOUR_INDEX[colour] * 4 + number] = _read_position(value)
    last = view.get("last_card")
    winner = view.get("winner")
    return GameState(
        rules=rules,
        seats=tuple(Seat(str(p["colour"]), str(p["name"]), str(p["kind"])) for p in players),
        marbles=marbles,
        hands=hands,
        turn=str(view["turn"]),
        rng=random.Random(0),
        dealer=str(view["dealer"]),
        deal_index=int(view["deal"]),
        pile=[HIDDEN_CARD] * int(view["pile"]),
        forced_burn=bool(view["forced_burn"]),
        last_card=None if last is None else _last_card_from_json(last),
        winner=None if winner is None else tuple(winner),
    )


# --------------------------------------------------------------------------
# Events: public facts of one move, for narration and sound on the client

EVENT_TYPES: Final[dict[str, type[Any]]] = {cls.__name__: cls for cls in typing.get_args(ev.Event)}


def event_to_json(event: ev.Event) -> dict[str, Any]:
    data: dict[str, Any] = {"type": type(event).__name__}
    for item in dataclasses.fields(event):
        value = getattr(event, item.name)
        if isinstance(value, Move):
            value = _move_to_json(value)
        elif isinstance(value, tuple):
            value = list(value)
        data[item.name] = value
    return data


def event_from_json(data: dict[str, Any]) -> ev.Event:
    cls = EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        raise ProtocolError("bad_message", f"unknown event {data.get('type')!r}")
    fields: dict[str, Any] = {}
    for item in dataclasses.fields(cls):
        if item.name not in data:
            continue
        value = data[item.name]
        if item.name == "move":
            value = _move_from_json(value)
        elif isinstance(value, list):
            value = tuple(value)
        fields[item.name] = value
    event: ev.Event = cls(**fields)
    return event

