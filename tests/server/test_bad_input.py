"""Bad input at a real server: every case gets a clear error (or a disconnect), the table is unchanged and
the server goes on serving everybody else."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from server_wire import next_message, send

from voicejack.engine import legal_moves
from voicejack.server.protocol import state_from_view

TWO_PEOPLE = {"players": 2, "teams": False, "seats": ["human", "human"], "seed": 5}


def _open(url: str) -> ClientConnection:
    return connect(url, open_timeout=5, proxy=None)


def _error(ws: ClientConnection) -> tuple[str, str]:
    message = next_message(ws, "error")
    return message["code"], message["message"]


@pytest.fixture
def table(start_server: Any) -> Iterator[Any]:
    """A two-person table: Ann (red) and Bob (green) connected by hand, nobody has moved yet."""
    server = start_server(hello_timeout=1.0, bot_delay=60, max_rate=20)  # no automatic whole-hand burn (R30) during a test
    with _open(server.url) as ann, _open(server.url) as bob:
        send(ann, {"type": "create", "name": "Ann", **TWO_PEOPLE})
        joined = next_message(ann, "joined")
        send(bob, {"type": "join", "code": joined["code"], "name": "Bob"})
        bob_joined = next_message(bob, "joined")
        view = next_message(bob, "state")["view"]
        yield server, joined, bob_joined, ann, bob, view


def _watch(url: str, code: str) -> dict[str, Any]:
    with _open(url) as ws:
        send(ws, {"type": "watch", "code": code})
        return dict(next_message(ws, "state")["view"])


def test_malformed_messages_get_a_clear_error_and_the_connection_stays(table: Any) -> None:
    server, joined, _, ann, _, view = table
    ann.send("this is not json")
    assert _error(ann) == ("bad_message", "that is not JSON")
    ann.send(b"\x00\x01")
    assert _error(ann)[0] == "bad_message"
    ann.send(json.dumps({"v": 99, "type": "move", "phrase": "burn hand"}))
    assert _error(ann)[0] == "version"
    ann.send(json.dumps([1, 2, 3]))
    assert _error(ann)[0] == "bad_message"
    send(ann, {"type": "teleport"})
    assert _error(ann)[0] == "bad_message"
    send(ann, {"type": "move", "phrase": 42})
    assert _error(ann)[0] == "bad_message"
    assert _watch(server.url, joined["code"]) == {**view, "you": None, "hand": None}
    assert "refused" in server.log and "bad_message" in server.log  # one log line per refusal


def test_an_oversized_message_disconnects_its_sender_only(table: Any) -> None:
    server, joined, _, ann, bob, view = table
    ann.send(json.dumps({"v": 1, "type": "move", "phrase": "x" * 40_000}))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ann.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    assert _watch(server.url, joined["code"])["moves"] == 0
    send(bob, {"type": "move", "phrase": "play nine red one"})  # Bob's line still works
    assert _error(bob)[0] in ("not_your_turn", "illegal")


def test_unknown_codes_and_wrong_tokens_are_refused_and_change_nothing(table: Any) -> None:
    server, joined, bob_joined, ann, bob, view = table
    with _open(server.url) as ws:
        other = "quiet whale one" if joined["code"] != "quiet whale one" else "quiet whale two"
        send(ws, {"type": "join", "code": other})
        assert _error(ws) == ("unknown_table", f"there is no table {other}")
        send(ws, {"type": "watch", "code": "open sesame"})
        assert _error(ws)[0] == "unknown_table"
        token = bob_joined["token"]
        forged = token[:-1] + ("y" if token.endswith("x") else "x")  # one character off, never the token itself
        send(ws, {"type": "rejoin", "code": joined["code"], "colour": "green", "token": forged})
        assert _error(ws)[0] == "bad_token"
        send(ws, {"type": "rejoin", "code": joined["code"], "colour": "green", "token": joined["token"]})
        assert _error(ws)[0] == "bad_token"  # Ann's token does not open Bob's seat
        send(ws, {"type": "join", "code": joined["code"]})
        assert _error(ws)[0] == "no_free_seat"
    after = _watch(server.url, joined["code"])
    assert after == {**view, "you": None, "hand": None}  # Bob still holds green, connected; nothing moved
    send(bob, {"type": "move", "phrase": "burn hand", "seen": 0})
    assert _error(bob)[0] in ("not_your_turn", "illegal")  # and his own line was never cut


def test_out_of_turn_illegal_and_stale_moves_are_refused(table: Any) -> None:
    server, joined, _, ann, bob, view = table
    state = state_from_view(view)
    mover, waiter = (ann, bob) if state.turn == "red" else (bob, ann)
    send(waiter, {"type": "move", "phrase": "burn hand"})
    assert _error(waiter)[0] == "not_your_turn"
    send(mover, {"type": "move", "phrase": "dance a little jig"})
    assert _error(mover)[0] == "illegal"
    send(mover, {"type": "move", "phrase": "play jack red one green one"})  # well formed, not legal on an empty board
    assert _error(mover)[0] == "illegal"
    send(mover, {"type": "move", "phrase": "burn hand", "seen": 7})
    assert _error(mover)[0] == "stale"
    assert _watch(server.url, joined["code"])["moves"] == 0
    send(mover, {"type": "leave"})
    assert next_message(mover, "left")["type"] == "left"


def test_a_flooding_client_is_cut_off_and_the_table_plays_on(table: Any) -> None:
    server, joined, _, ann, bob, view = table
    for _ in range(200):
        try:
            ann.send(json.dumps({"v": 1, "type": "move", "phrase": "burn hand", "seen": 999}))
        except ConnectionClosed:
            break
    codes = []
    with pytest.raises(ConnectionClosed):
        while True:
            message = json.loads(ann.recv(timeout=5))
            codes.append(message.get("code"))
    assert "flood" in codes
    assert "flooding; disconnected" in server.log
    assert _watch(server.url, joined["code"])["moves"] == 0


def test_a_client_that_never_says_which_table_is_disconnected(table: Any) -> None:
    server, joined, *_ = table
    started = time.monotonic()
    with _open(server.url) as ws:
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
    assert time.monotonic() - started < 4
    assert "said nothing for" in server.log
    assert _watch(server.url, joined["code"])["moves"] == 0  # and the server still serves


def test_a_legal_move_from_the_seat_to_act_is_played_and_told_to_both(table: Any) -> None:
    _, joined, _, ann, bob, view = table
    state = state_from_view(view)
    mover = ann if state.turn == "red" else bob
    own = next_message(mover, "state")["view"]
    phrase = legal_moves(state_from_view(own))[0].phrase
    send(mover, {"type": "move", "phrase": phrase, "seen": 0})
    for ws in (ann, bob):
        moved = next_message(ws, "moved")
        assert moved["phrase"] == phrase and moved["view"]["moves"] == 1


def test_a_client_that_stops_reading_is_disconnected_when_its_outbox_is_full() -> None:
    """The loopback's socket buffers hold megabytes, more than a whole match, so the full outbox is made here
    with a connection whose sends never finish (as a reader that stopped reading looks to the server)."""
    import asyncio

    from voicejack.server.server import Client

    class NeverReads:
        remote_address = ("127.0.0.1", 4000)
        closed: tuple[int, str] | None = None

        async def send(self, text: str) -> None:
            await asyncio.Event().wait()

        async def close(self, code: int, reason: str) -> None:
            self.closed = (code, reason)

    async def run() -> tuple[NeverReads, Client]:
        ws = NeverReads()
        client = Client(ws, outbox=4)  # type: ignore[arg-type]
        for number in range(10):
            client.send({"type": "moved", "number": number})
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)
        return ws, client

    ws, client = asyncio.run(run())
    assert client.close_reason == "stalled" and ws.closed == (1008, "stalled")


def test_a_create_with_wrong_field_types_is_refused_clearly_and_stores_no_table(start_server: Any, kit: Any) -> None:
    server = start_server()
    two = {"teams": False, "seats": ["human", "bot"]}
    with _open(server.url) as ws:
        send(ws, {"type": "create", **two, "players": 2.0})  # a number, but not a whole 2
        code, message = _error(ws)
        assert code == "bad_message" and "'players' is 2 or 4" in message
        send(ws, {"type": "create", **two, "players": 2, "name": 5})
        assert _error(ws) == ("bad_message", "'name' must be a non-empty string of at most 32 characters")
        send(ws, {"type": "create", **two, "players": 2, "names": ["x" * 40, None]})
        assert _error(ws) == ("bad_message", "'names' lists 2 names (null for the default), each at most 32 characters")
        send(ws, {"type": "create", "players": 2, "teams": False, "seats": ["human", "bot:expert:think=30"]})
        code, message = _error(ws)  # a search that would think half a minute a move
        assert code == "bad_message" and "bot:expert (thinking at most 2 s a move" in message
        send(ws, {"type": "create", **two, "players": 2, "name": "Ann"})  # the connection is still good
        assert next_message(ws, "joined")["colour"] == "red"
    assert "Traceback" not in server.log and server.log.count("created by") == 1  # refused creates stored nothing
    listed = subprocess.run([*kit.voicejack, "tables", "--db", server.db], capture_output=True, text=True, timeout=30)
    assert listed.stdout.strip().endswith("1 table")


def test_join_and_host_refuse_a_name_the_server_would_refuse_before_they_connect(kit: Any) -> None:
    long = "Bartholomew Featherstonehaugh the Third"
    for args in (["join", "ws://127.0.0.1:9", "amber", "tiger", "seven", "--name", long],
                 ["host", "ws://127.0.0.1:9", "--players", "2", "--seats", "human,bot", "--name", long],
                 ["host", "ws://127.0.0.1:9", "--players", "2", "--seats", "human,bot", "--names", f"Ann,{long}"]):
        result = subprocess.run([*kit.voicejack, *args, "--no-sound", "--keyboard"], capture_output=True, text=True,
                                timeout=30, stdin=subprocess.DEVNULL)
        assert result.returncode == 2 and "Traceback" not in result.stderr, args
        assert f"'{long}' cannot be a name at the table: 1 to 32 characters" in result.stderr, args
