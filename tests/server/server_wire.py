"""Raw protocol messages for the tests that talk to the server without a Session (docs/protocol.md)."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import ClientConnection


def send(ws: ClientConnection, message: dict[str, Any]) -> None:
    ws.send(json.dumps({"v": 1, **message}))


def next_message(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type ``kind``, skipping the others (at most 5 s for each)."""
    while True:
        message = json.loads(ws.recv(timeout=5))
        if message["type"] == kind:
            return dict(message)
