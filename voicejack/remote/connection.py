"""The client's line to a table server: connects, says hello, and reconnects by itself when the line drops.

A background thread owns the websocket (websockets' threading client);
messages arrive in a queue the table loop reads. The hello is the first
message of every connection: create/join/watch the first time, then
"rejoin" with the seat token, so a dropped line or a restarted (or
replaced) server puts the player back in the same seat. Several server
addresses may be given; after a drop they are tried in turn.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from voicejack.server.protocol import CLOSE_REPLACED, MAX_MESSAGE_BYTES, VERSION

#: Errors after which the hello is not tried again: the table or seat will not appear by waiting.
FINAL_ERRORS = frozenset({"unknown_table", "bad_token", "no_free_seat", "version", "bad_message", "not_seated"})
HELLOS = ("create", "join", "rejoin", "watch")
Hello = Callable[[], dict[str, Any]]


class LineEvent:
    """Not a server message: the line itself went down or came back (``up``), or gave up for good."""

    def __init__(self, up: bool, final: bool = False, reason: str = "") -> None:
        self.up = up
        self.final = final
        self.reason = reason


class Connection:
    def __init__(self, urls: Sequence[str], hello: Hello, retry: float = 0.5, give_up_after: float = 600.0) -> None:
        self.urls = list(urls)
        self.hello = hello
        self.retry = retry
        self.give_up_after = give_up_after
        self.inbox: queue.Queue[dict[str, Any] | LineEvent] = queue.Queue()
        self._ws: ClientConnection | None = None
        self._send_lock = threading.Lock()
        self._closing = False
        self._final = False
        self.replaced = False  # the server handed this seat to a newer connection
        self._thread = threading.Thread(target=self._run, daemon=True, name="voicejack-line")

    def start(self) -> None:
        self._thread.start()

    def send(self, message: dict[str, Any]) -> bool:
        """Send now if the line is up; False when it is down (the caller may say so and try again)."""
        with self._send_lock:
            ws = self._ws
            if ws is None:
                return False
            try:
                ws.send(json.dumps({"v": VERSION, **message}))
                return True
            except ConnectionClosed:
                return False

    def close(self) -> None:
        self._closing = True
        ws = self._ws
        if ws is not None:
            ws.close()
        self._thread.join(timeout=3)

    def stop_retrying(self) -> None:
        """A final refusal came: the current connection ends and no other is tried."""
        self._final = True
        ws = self._ws
        if ws is not None:
            ws.close()

    def _serve(self, ws: ClientConnection) -> bool:
        """One connection: the hello, then every message into the inbox until the line drops. True when the
        server answered the hello; False when it sent the client elsewhere (or closed first): that line was
        never up, so it is not told as a drop and a reconnection."""
        with self._send_lock:
            self._ws = ws
        answered = False
        try:
            ws.send(json.dumps({"v": VERSION, **self.hello()}))
            for raw in ws:
                message = json.loads(raw)
                if not isinstance(message, dict):
                    continue
                hello_refused = message.get("type") == "error" and message.get("about") in HELLOS
                if hello_refused and message.get("code") in FINAL_ERRORS:
                    self._final = True
                if hello_refused and message.get("code") == "elsewhere":
                    time.sleep(self.retry)  # another server holds the table for a moment: try again, maybe there
                    return answered
                if not answered:
                    answered = True
                    self.inbox.put(LineEvent(True))
                self.inbox.put(message)
                if self._final:
                    return answered  # the table or seat will not appear by waiting: hang up
        except (ConnectionClosed, ValueError):
            pass
        finally:
            if ws.close_code == CLOSE_REPLACED:
                self._final = True  # the seat is played from another device now: taking it back would start a tug-of-war
                self.replaced = True
            with self._send_lock:
                self._ws = None
        return answered

    def _run(self) -> None:
        attempt = 0
        down_since: float | None = None
        while not self._closing and not self._final:
            url = self.urls[attempt % len(self.urls)]
            attempt += 1
            try:
                ws = connect(url, max_size=MAX_MESSAGE_BYTES, open_timeout=5, close_timeout=1, compression=None,
                             proxy=None)
            except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as error:
                if isinstance(error, InvalidURI):
                    self.inbox.put(LineEvent(False, final=True, reason=f"{url} is not a ws:// address"))
                    return
                if down_since is None:
                    down_since = time.monotonic()
                    self.inbox.put(LineEvent(False, reason=str(error)))
                if time.monotonic() - down_since > self.give_up_after:
                    self.inbox.put(LineEvent(False, final=True, reason="the server stayed out of reach"))
                    return
                time.sleep(self.retry if attempt % len(self.urls) == 0 else 0.05)
                continue
            down_since = None
            with ws:
                answered = self._serve(ws)
            if answered and not self._closing and not self._final:
                down_since = time.monotonic()
                self.inbox.put(LineEvent(False, reason="the line dropped"))
                time.sleep(0.05)
        if self._final:
            reason = "your seat is now played from another connection" if self.replaced else "the server refused"
            self.inbox.put(LineEvent(False, final=True, reason=reason))
