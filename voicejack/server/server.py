"""The table server: websocket connections, the tables they play at, leases, cleanup and a clean stop."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from voicejack.bots import BOT_KINDS, EXPERT_KIND
from voicejack.bots.expert import parse_expert_options
from voicejack.engine import make_rules, new_game
from voicejack.engine.rulesets import RULE_SET_NAMES, VOICEJACK
from voicejack.engine.state import Seat as EngineSeat
from voicejack.server.codes import new_code, normalise_code
from voicejack.server.protocol import (
    CLOSE_REPLACED,
    REPLACED,
    MAX_MESSAGE_BYTES,
    MAX_NAME_CHARS,
    ProtocolError,
    decode,
    encode,
    int_field,
    seconds_field,
    text_field,
)
from voicejack.server.storage import CodeTaken, SeatRow, Storage, TableElsewhere, open_storage
from voicejack.server.table import MAX_THINK, OPEN, ROBOT, Refused, ServerTable, TableTiming, describe_rules, restore_state, table_text

log = logging.getLogger("voicejack.server")


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    db: str = "voicejack-tables.sqlite"
    timing: TableTiming = field(default_factory=TableTiming)
    lease: float = 10.0               # how long a table stays this server's after its last heartbeat (PostgreSQL)
    cleanup_after: float = 86400.0    # finished tables with nobody connected are deleted after this long
    release_after: float = 600.0      # a table nobody is at, with no bot to move, leaves memory after this long
    first_message_within: float = 10.0
    rate: float = 20.0                # messages a second a client may send on average ...
    burst: float = 40.0               # ... and at once
    outbox: int = 512                 # messages waiting for a slow reader before it is disconnected


class Client:
    """One connection: a bounded outbox written by its own task, so a stalled reader never holds up a table."""

    def __init__(self, ws: ServerConnection, outbox: int) -> None:
        self.ws = ws
        host, port = (ws.remote_address or ("?", 0))[:2]
        self.name = f"{host}:{port}"
        self.colour: str | None = None
        self.table: ServerTable | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(outbox)
        self.writer = asyncio.create_task(self._write(), name=f"writer {self.name}")
        self.close_reason: str | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        if self.close_reason is not None:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("refused %s: stalled, %d messages unread; disconnected", self.name, self.queue.maxsize)
            self.close("stalled")

    def close(self, reason: str) -> None:
        """Close after what is already queued has gone out (a stalled reader at once: it reads nothing)."""
        if self.close_reason is not None:
            return
        self.close_reason = reason
        try:
            if reason == "stalled":
                raise asyncio.QueueFull
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.writer.cancel()
            asyncio.ensure_future(self.ws.close(*self._close_code()))

    def _close_code(self) -> tuple[int, str]:
        reason = self.close_reason or ""
        if reason == REPLACED:
            return CLOSE_REPLACED, reason
        return (1008 if reason in ("flood", "stalled") else 1001), reason[:100]

    async def _write(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                await self.ws.send(text)
            if self.close_reason is not None:
                await self.ws.close(*self._close_code())
        except ConnectionClosed:
            pass

    async def finish(self) -> None:
        """The connection's handler is ending: let the outbox drain briefly, then stop its writer."""
        if not self.writer.done():
            try:
                self.queue.put_nowait(None)
            except asyncio.QueueFull:
                self.writer.cancel()
        try:
            await asyncio.wait_for(self.writer, 2.0)
        except (TimeoutError, asyncio.CancelledError):
            pass


class TableServer:
    def __init__(self, config: ServerConfig, storage: Storage | None = None) -> None:
        self.config = config
        self.server_id = f"{os.uname().nodename}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.storage = storage or open_storage(config.db, self.server_id, config.lease)
        self.tables: dict[str, ServerTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._server: Server | None = None
        self._tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ running

    async def start(self) -> None:
        # Thousands of tables make a large heap; the collector's full passes over it were the long pauses
        # behind the slowest broadcasts. Moves make little cyclic garbage, so collect far less often.
        gc.freeze()
        gc.set_threshold(50_000, 50, 100)
        await self.storage.open()
        self._server = await serve(
            self._connection, self.config.host, self.config.port, max_size=MAX_MESSAGE_BYTES,
            ping_interval=20, ping_timeout=20, close_timeout=2, compression=None,
        )
        self._tasks = [asyncio.create_task(self._heartbeat()), asyncio.create_task(self._cleanup())]
        log.info("serving tables on ws://%s:%d (%s)", self.config.host, self.port, _describe_db(self.config.db))

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._server is not None:
            self._server.close()
        for table in list(self.tables.values()):
            table.close("the server is stopping")
        if self._server is not None:
            await self._server.wait_closed()
        await self.storage.flush()
        for code in list(self.tables):
            await self.storage.release(code)
        await self.storage.close()
        log.info("stopped")

    async def run_until_signalled(self) -> None:
        await self.start()
        stop = asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(signum, stop.set)
        await stop.wait()
        log.info("stopping on signal")
        await self.stop()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.config.lease / 3)
            try:
                await self.storage.renew(list(self.tables), time.time())
            except Exception:
                log.exception("could not renew table leases")

    async def _cleanup(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, max(0.2, min(self.config.cleanup_after, self.config.release_after) / 4)))
            now = time.time()
            for code, table in list(self.tables.items()):
                if table.connected or table.busy or now - table.idle_since <= self.config.release_after:
                    continue
                # Nobody here and nothing to play: free the memory, and with PostgreSQL let any server take it.
                table.close("released")
                del self.tables[code]
                await self.storage.release(code)
                log.info("table %s: nobody at it for %.0f s, released", code, now - table.idle_since)
            try:
                in_use = [code for code, table in self.tables.items() if table.connected]
                for code in await self.storage.delete_finished(now - self.config.cleanup_after, now, in_use):
                    self.tables.pop(code, None)
                    log.info("table %s: finished and idle, cleaned up", code)
            except Exception:
                log.exception("cleanup failed")

    # ------------------------------------------------------------------ tables

    async def _table(self, code_text: str) -> ServerTable:
        code = normalise_code(code_text)
        if code is None:
            raise Refused("unknown_table", "that is not a table code: three words like amber tiger seven")
        if code in self.tables:
            return self.tables[code]
        async with self._loading.setdefault(code, asyncio.Lock()):
            if code in self.tables:
                return self.tables[code]
            try:
                row = await self.storage.claim(code, time.time())
            except TableElsewhere as elsewhere:
                raise Refused("elsewhere", f"another server has this table; try again in {elsewhere.retry_after:.1f} s") from None
            if row is None:
                raise Refused("unknown_table", f"there is no table {code}")
            table = ServerTable(code, restore_state(row), row.moves, row.seats, self.storage,
                                self.config.timing, self._forget)
            self.tables[code] = table
            log.info("table %s: resumed after %d moves", code, row.moves)
            table.resume_seats()
            return table

    def _forget(self, table: ServerTable) -> None:
        if self.tables.get(table.code) is table:
            del self.tables[table.code]

    async def _create(self, client: Client, message: dict[str, Any]) -> None:
        players = message.get("players", 4)
        teams = message.get("teams", players == 4)
        mode = message.get("mode", "regular")
        rule_set = message.get("rules", VOICEJACK)
        if (not isinstance(players, int) or isinstance(players, bool) or players not in (2, 4)
                or not isinstance(teams, bool) or mode not in ("regular", "complex") or rule_set not in RULE_SET_NAMES):
            raise ProtocolError("bad_message", "'players' is 2 or 4, 'teams' true or false, 'mode' regular or complex, "
                                f"'rules' one of {', '.join(RULE_SET_NAMES)}")
        turn_seconds = int_field(message, "turn_seconds", required=False)
        try:
            rules = make_rules(players, teams=teams and players == 4, mode=mode, rule_set=rule_set,
                               turn_seconds=turn_seconds)
        except ValueError as error:  # a table the rule set does not allow (Karooty: 4 players in teams, KA1)
            raise ProtocolError("bad_message", str(error)) from None
        kinds = message.get("seats") or ["human"] + ["bot"] * (players - 1)
        names = message.get("names") or [None] * players
        if not isinstance(kinds, list) or len(kinds) != players or any(not _seat_kind(k) for k in kinds):
            raise ProtocolError("bad_message", f"'seats' lists {players} kinds, each human or one of "
                                f"{', '.join(BOT_KINDS)} or {EXPERT_KIND} (thinking at most {MAX_THINK:g} s a move, "
                                f"like {EXPERT_KIND}:think=0.5)")
        if (not isinstance(names, list) or len(names) != players
                or any(n is not None and (not isinstance(n, str) or not n.strip() or len(n) > MAX_NAME_CHARS) for n in names)):
            raise ProtocolError("bad_message", f"'names' lists {players} names (null for the default), "
                                f"each at most {MAX_NAME_CHARS} characters")
        seed = int_field(message, "seed", required=False)
        creator = text_field(message, "name", MAX_NAME_CHARS, required=False)  # checked before anything is stored
        seats = tuple(EngineSeat(colour, (name or colour.capitalize()).strip(), kind)
                      for colour, kind, name in zip(rules.seats, kinds, names))
        state, _ = new_game(rules, seed=seed if seed is not None else int.from_bytes(os.urandom(4), "little"), seats=seats)
        rows = [SeatRow(seat.colour, seat.name, None, OPEN if seat.kind == "human" else ROBOT) for seat in seats]
        text = table_text(state)
        for _ in range(20):
            code = new_code()
            try:
                await self.storage.create_table(code, describe_rules(state), ",".join(kinds), text, rows, time.time())
                break
            except CodeTaken:
                continue
        else:
            raise Refused("storage", "could not find a free table code; try again")
        table = ServerTable(code, state, 0, rows, self.storage, self.config.timing, self._forget)
        self.tables[code] = table
        log.info("table %s: created by %s (%s; seats %s)", code, client.name, describe_rules(state), ",".join(kinds))
        client.table = table
        if "human" in kinds:
            await table.seat_new_player(client, creator)
        else:
            table.watch(client)
            table.begin()

    # ------------------------------------------------------------------ one connection

    async def _connection(self, ws: ServerConnection) -> None:
        client = Client(ws, self.config.outbox)
        log.info("connection %s opened", client.name)
        allowance, last = self.config.burst, time.monotonic()
        first = True
        try:
            while True:
                try:
                    raw = await asyncio.wait_for(ws.recv(), self.config.first_message_within) if first else await ws.recv()
                except TimeoutError:
                    log.info("refused %s: said nothing for %.0f s; disconnected", client.name, self.config.first_message_within)
                    await ws.close(1008, "stalled: say which table within the time allowed")
                    break
                first = False
                now = time.monotonic()
                allowance = min(self.config.burst, allowance + (now - last) * self.config.rate)
                last = now
                if allowance < 1:
                    log.info("refused %s: flooding; disconnected", client.name)
                    client.send({"type": "error", "code": "flood", "message": "too many messages; disconnected"})
                    client.close("flood")
                    break
                allowance -= 1
                await self._handle(client, raw)
        except ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == 1009:
                log.info("refused %s: message over %d bytes; disconnected", client.name, MAX_MESSAGE_BYTES)
        finally:
            if client.table is not None:
                client.table.disconnected(client)
            await client.finish()
            log.info("connection %s closed%s", client.name, f" ({client.close_reason})" if client.close_reason else "")

    async def _handle(self, client: Client, raw: str | bytes) -> None:
        kind = "?"
        try:
            message = decode(raw)
            kind = message["type"]
            if kind in ("create", "join", "rejoin", "watch"):
                if client.table is not None:
                    raise ProtocolError("bad_message", "this connection is at a table already")
                if kind == "create":
                    await self._create(client, message)
                    return
                table = await self._table(text_field(message, "code", 80) or "")
                if kind == "join":
                    await table.seat_new_player(client, text_field(message, "name", MAX_NAME_CHARS, required=False))
                elif kind == "rejoin":
                    await table.seat_returning_player(client, text_field(message, "colour", 10) or "",
                                                      text_field(message, "token", 100) or "")
                else:
                    table.watch(client)
                client.table = table
                log.info("connection %s: %s table %s%s", client.name, kind, table.code,
                         f" as {client.colour}" if client.colour else "")
            elif client.table is None:
                raise ProtocolError("not_at_table", "create, join, rejoin or watch a table first")
            elif kind == "move":
                await client.table.player_move(client, text_field(message, "phrase", 120) or "",
                                               int_field(message, "seen", required=False),
                                               seconds_field(message, "undo_seconds"))
            elif kind == "ready":
                client.table.ready(client, int_field(message, "moves") or 0)
            elif kind == "undo":
                await client.table.undo(client)
            elif kind == "leave":
                await client.table.leave(client)
                client.table.disconnected(client)
                client.table = None
                client.send({"type": "left"})
        except (ProtocolError, Refused) as refusal:
            log.info("refused %s: %s (%s): %s", client.name, refusal.code, kind, refusal.message)
            client.send({"type": "error", "code": refusal.code, "message": refusal.message, "about": kind})


def _seat_kind(kind: object) -> bool:
    """A seat kind a server table plays: a person, a bot, or the searching bot within the server's time a move."""
    if kind == "human" or kind in BOT_KINDS:
        return True
    if not isinstance(kind, str) or not kind.startswith(EXPERT_KIND) or len(kind) > 100:
        return False
    try:
        return parse_expert_options(kind[len(EXPERT_KIND):]).think <= MAX_THINK
    except ValueError:
        return False


def _describe_db(db: str) -> str:
    if db.startswith(("postgresql://", "postgres://")):
        return "PostgreSQL " + db.split("@")[-1]
    return f"SQLite {db}"
