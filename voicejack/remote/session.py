"""One seat (or a spectator's chair) at a server table, as the client keeps it: the latest view, the seat
token, and the server's messages turned into news the table front end narrates."""

from __future__ import annotations

import json
import os
import queue
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voicejack.engine import GameState
from voicejack.engine.events import Event
from voicejack.remote.connection import Connection, LineEvent
from voicejack.server.protocol import event_from_json, state_from_view


def default_seat_store() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "voicejack" / "seats.json"


class SeatStore:
    """Seat tokens by table code, in a file only this user can read: the key back into a seat."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_seat_store()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, code: str) -> tuple[str, str] | None:
        entry = self._read().get(code)
        if isinstance(entry, dict) and isinstance(entry.get("colour"), str) and isinstance(entry.get("token"), str):
            return entry["colour"], entry["token"]
        return None

    def put(self, code: str, colour: str, token: str) -> None:
        data = self._read()
        data[code] = {"colour": colour, "token": token}
        self._write(data)

    def forget(self, code: str) -> None:
        data = self._read()
        if data.pop(code, None) is not None:
            self._write(data)

    def _write(self, data: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            json.dump(data, stream, indent=1)
        os.replace(temporary, self.path)


# ---------------------------------------------------------------------- news for the front end

@dataclass
class Seated:
    code: str
    colour: str | None  # None: watching
    back: bool = False


@dataclass
class Snapshot:
    """The whole table as this seat sees it (on joining, and after every reconnection)."""

    state: GameState
    moves: int


@dataclass
class Played:
    colour: str
    phrase: str
    before: GameState | None  # None when the previous view is missing (then only the new table is told)
    events: list[Event]
    after: GameState
    moves: int


@dataclass
class Undone:
    """``colour``'s last move (``phrase``) was taken back: ``after`` is the table as it was before it."""

    colour: str
    phrase: str
    after: GameState
    moves: int


@dataclass
class SeatNews:
    colour: str
    name: str
    event: str  # joined, left, dropped, bot, back, player
    grace: float | None = None
    next_turn: bool = False
    seconds: float | None = None  # "slow": how long the player was silent


@dataclass
class Clock:
    """ON11's clock of this seat's turn (the server's ``turn_clock``): ``event`` is set (it starts at this
    client's ready), started, warning or tick; ``seconds`` the time it was set to, or the time left."""

    event: str
    colour: str
    moves: int
    seconds: float


@dataclass
class UndoOffer:
    """After this seat's move ``moves``, a bot waits ``seconds`` (from this client's ready) for "undo"."""

    colour: str
    moves: int
    seconds: float


@dataclass
class Refusal:
    code: str
    message: str


@dataclass
class Line:
    up: bool
    final: bool
    reason: str


News = Seated | Snapshot | Played | Undone | SeatNews | Clock | UndoOffer | Refusal | Line


@dataclass
class Intent:
    """What the first hello asks for: ``create`` (with the table ``options``), ``join`` or ``watch`` ``code``."""

    action: str
    code: str | None = None
    name: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


class Session:
    def __init__(self, urls: Sequence[str], intent: Intent, store: SeatStore | None = None,
                 retry: float = 0.5, keep_messages: bool = False) -> None:
        self.intent = intent
        self.store = store
        self.code = intent.code
        self.colour: str | None = None
        self.token: str | None = None
        self.view: dict[str, Any] | None = None
        self.moves = -1
        self.keep_messages = keep_messages
        self.messages: list[dict[str, Any]] = []  # with keep_messages: every server message, to check what was sent
        if intent.action == "join" and intent.code and store is not None:
            stored = store.get(intent.code)
            if stored is not None:
                self.colour, self.token = stored
        self.connection = Connection(urls, self.hello, retry=retry)

    def start(self) -> None:
        self.connection.start()

    def close(self) -> None:
        self.connection.close()

    def hello(self) -> dict[str, Any]:
        if self.token is not None and self.code is not None and self.colour is not None:
            return {"type": "rejoin", "code": self.code, "colour": self.colour, "token": self.token}
        if self.intent.action == "create" and self.code is None:
            return {"type": "create", "name": self.intent.name, **self.intent.options}
        if self.intent.action == "join":
            return {"type": "join", "code": self.code, "name": self.intent.name}
        return {"type": "watch", "code": self.code}

    @property
    def state(self) -> GameState | None:
        return None if self.view is None else state_from_view(self.view)

    def send_move(self, phrase: str, undo_seconds: float | None = None) -> bool:
        """``undo_seconds``: how long a bot next should wait so the player can take the move back (None: no pause)."""
        message: dict[str, Any] = {"type": "move", "phrase": phrase, "seen": self.moves}
        if undo_seconds is not None:
            message["undo_seconds"] = undo_seconds
        return self.connection.send(message)

    def send_undo(self) -> bool:
        return self.connection.send({"type": "undo"})

    def send_ready(self, moves: int) -> bool:
        """The player has heard everything up to move ``moves``: a clock or pause waiting for that may start."""
        return self.connection.send({"type": "ready", "moves": moves})

    def leave(self) -> bool:
        return self.connection.send({"type": "leave"})

    def news(self, timeout: float | None) -> list[News]:
        """What happened since the last call, waiting up to ``timeout`` seconds for the first item."""
        items: list[News] = []
        try:
            first = self.connection.inbox.get(timeout=timeout)
        except queue.Empty:
            return items
        pending = [first]
        while True:
            try:
                pending.append(self.connection.inbox.get_nowait())
            except queue.Empty:
                break
        for message in pending:
            item = self._read(message)
            if item is not None:
                items.append(item)
        return items

    def _read(self, message: dict[str, Any] | LineEvent) -> News | None:
        if isinstance(message, LineEvent):
            return Line(message.up, message.final, message.reason)
        if self.keep_messages:
            self.messages.append(message)
        kind = message.get("type")
        if kind == "joined":
            self.code, self.colour, self.token = message["code"], message["colour"], message["token"]
            if self.store is not None and self.code is not None and self.token is not None:
                self.store.put(self.code, str(self.colour), self.token)
            return Seated(str(self.code), self.colour, bool(message.get("back")))
        if kind == "watching":
            self.code = message["code"]
            return Seated(str(self.code), None)
        if kind == "state":
            self.view = message["view"]
            self.moves = int(message["view"]["moves"])
            return Snapshot(state_from_view(message["view"]), self.moves)
        if kind == "moved":
            before = state_from_view(self.view) if self.view is not None and self.moves == message["view"]["moves"] - 1 else None
            self.view = message["view"]
            self.moves = int(message["view"]["moves"])
            return Played(message["colour"], message["phrase"], before,
                          [event_from_json(e) for e in message["events"]], state_from_view(message["view"]), self.moves)
        if kind == "undone":
            self.view = message["view"]
            self.moves = int(message["view"]["moves"])
            return Undone(message["colour"], message["phrase"], state_from_view(message["view"]), self.moves)
        if kind == "seat":
            if self.view is not None and isinstance(message.get("seats"), dict):
                for player in self.view["players"]:
                    player.update(message["seats"].get(player["colour"], {}))
                    if player["colour"] == message.get("colour") and isinstance(message.get("name"), str):
                        player["name"] = message["name"]  # a player who joins names the seat they take
            return SeatNews(message["colour"], message["name"], message["event"], message.get("grace"),
                            bool(message.get("next_turn")), message.get("seconds"))
        if kind == "turn_clock":
            seconds = message.get("seconds", message.get("seconds_left"))
            return Clock(str(message.get("event")), str(message.get("colour")), int(message["moves"]),
                         float(seconds or 0))
        if kind == "undo_offer":
            return UndoOffer(str(message.get("colour")), int(message["moves"]), float(message["seconds"]))
        if kind == "error":
            if message.get("code") == "bad_token" and self.store is not None and self.code is not None:
                self.store.forget(self.code)
            return Refusal(str(message.get("code")), str(message.get("message")))
        return None
