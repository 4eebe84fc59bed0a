"""Where tables live: SQLite (one server, a file) or PostgreSQL (several servers sharing tables).

Every write goes through one writer task that commits whatever is waiting
in one transaction (group commit), then wakes the callers: a move is told
to the players only after its transaction has committed. Each write names
the server that owns the table; a write for a table this server no longer
owns changes nothing and raises TableLost, so two servers never fork a
match. Ownership is a lease renewed by a heartbeat; with SQLite the file
is locked to one server process, so the lease is always granted.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

SCHEMA: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS vj_tables (
        code TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL,
        rules TEXT NOT NULL, kinds TEXT NOT NULL, moves INTEGER NOT NULL, status TEXT NOT NULL, winner TEXT,
        state TEXT NOT NULL, state_moves INTEGER NOT NULL DEFAULT 0, owner TEXT,
        lease_until DOUBLE PRECISION NOT NULL DEFAULT 0)""",
    """CREATE TABLE IF NOT EXISTS vj_moves (
        code TEXT NOT NULL, number INTEGER NOT NULL, colour TEXT NOT NULL, phrase TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, number))""",
    """CREATE TABLE IF NOT EXISTS vj_seats (
        code TEXT NOT NULL, colour TEXT NOT NULL, name TEXT NOT NULL, token_hash TEXT, control TEXT NOT NULL,
        PRIMARY KEY (code, colour))""",
)
Statement = tuple[str, tuple[Any, ...], bool]
SLOW_COMMIT = 0.2  # seconds: a commit slower than this is logged, as every move at the table waits for it
log = logging.getLogger("voicejack.server")  # sql with %s, its parameters, must it change a row


class DatabaseError(Exception):
    """The database cannot be reached or used (the message says why)."""


class TableLost(Exception):
    """This server does not own the table (any more): the write changed nothing."""


class TableElsewhere(Exception):
    """Another live server owns the table; ask again after ``retry_after`` seconds."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"the table is served by another server for {retry_after:.1f} more seconds")
        self.retry_after = retry_after


class CodeTaken(Exception):
    """A table with that code exists already."""


@dataclass
class SeatRow:
    colour: str
    name: str
    token_hash: str | None
    control: str  # "open" (no player yet), "player", "bot" (a bot holds it for a dropped player), "robot"


@dataclass
class TableRow:
    code: str
    rules: str
    kinds: str
    moves: int
    status: str
    winner: str | None
    state: str              # the table file after move ``state_moves``; later moves are replayed onto it
    state_moves: int
    updated: float
    seats: list[SeatRow]
    later: list[str]        # the phrases of the moves after ``state_moves``, in order


@dataclass
class _Write:
    statements: list[Statement]
    done: asyncio.Future[None]


class Storage:
    """The SQL both backends share; a backend runs batches of statements and queries."""

    exclusive = False  # True when only this process can open the database (SQLite)

    def __init__(self, server_id: str, lease: float) -> None:
        self.server_id = server_id
        self.lease = lease
        self._waiting: list[_Write] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        self.reading_only = False

    # -- backend hooks
    async def _connect(self) -> None: raise NotImplementedError
    async def _disconnect(self) -> None: raise NotImplementedError
    async def _batch(self, writes: Sequence[list[Statement]]) -> list[BaseException | None]: raise NotImplementedError
    async def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]: raise NotImplementedError
    async def _claim(self, code: str, now: float) -> int: raise NotImplementedError

    async def open(self) -> None:
        await self._connect()
        self._wake = asyncio.Event()
        self._writer = asyncio.create_task(self._write_loop(), name="storage-writer")

    async def open_for_reading(self) -> None:
        """Read beside a running server (`voicejack tables`, `export`): no writer, no claim on the database."""
        self.reading_only = True
        await self._connect()

    async def close(self) -> None:
        if self._writer is not None:
            await self.flush()
            self._writer.cancel()
            try:
                await self._writer
            except asyncio.CancelledError:
                pass
        await self._disconnect()

    async def flush(self) -> None:
        while self._waiting:
            await asyncio.sleep(0.005)

    async def _write(self, statements: list[Statement]) -> None:
        assert self._wake is not None, "open() the storage first"
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Write(statements, done))
        self._wake.set()
        await done

    async def _write_loop(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._waiting:
                batch, self._waiting = self._waiting, []
                started = time.monotonic()
                try:
                    results = await self._batch([write.statements for write in batch])
                except Exception as error:  # the database itself failed: every caller hears it
                    results = [error] * len(batch)
                took = time.monotonic() - started
                if took > SLOW_COMMIT:
                    log.warning("storage: committing %d writes took %.0f ms", len(batch), took * 1000)
                for write, result in zip(batch, results):
                    if write.done.done():
                        continue
                    if result is None:
                        write.done.set_result(None)
                    else:
                        write.done.set_exception(result)

    # -- writes

    async def create_table(self, code: str, rules: str, kinds: str, state: str, seats: list[SeatRow], now: float) -> None:
        statements: list[Statement] = [(
            "INSERT INTO vj_tables (code, created, updated, rules, kinds, moves, status, winner, state, owner, "
            "lease_until) VALUES (%s, %s, %s, %s, %s, 0, 'playing', NULL, %s, %s, %s) ON CONFLICT (code) DO NOTHING",
            (code, now, now, rules, kinds, state, self.server_id, now + self.lease), True,
        )]
        statements += [
            ("INSERT INTO vj_seats (code, colour, name, token_hash, control) SELECT %s, %s, %s, %s, %s "
             "WHERE EXISTS (SELECT 1 FROM vj_tables WHERE code = %s AND owner = %s AND created = %s AND moves = 0) "
             "ON CONFLICT (code, colour) DO NOTHING",
             (code, seat.colour, seat.name, seat.token_hash, seat.control, code, self.server_id, now), True)
            for seat in seats
        ]
        try:
            await self._write(statements)
        except TableLost:
            raise CodeTaken(code) from None

    def _owned(self, code: str, now: float) -> Statement:
        return ("UPDATE vj_tables SET updated = %s WHERE code = %s AND owner = %s", (now, code, self.server_id), True)

    async def record_move(self, code: str, number: int, colour: str, phrase: str, state: str | None,
                          winner: str | None, now: float) -> None:
        """Commit move ``number`` (1-based), with the table file after it when ``state`` is given (a snapshot);
        TableLost if another server owns the table."""
        status = "finished" if winner else "playing"
        if state is None:
            table: Statement = (
                "UPDATE vj_tables SET updated = %s, moves = %s, status = %s, winner = %s "
                "WHERE code = %s AND owner = %s AND moves = %s",
                (now, number, status, winner, code, self.server_id, number - 1), True)
        else:
            table = (
                "UPDATE vj_tables SET updated = %s, moves = %s, state = %s, state_moves = %s, status = %s, winner = %s "
                "WHERE code = %s AND owner = %s AND moves = %s",
                (now, number, state, number, status, winner, code, self.server_id, number - 1), True)
        await self._write([
            ("INSERT INTO vj_moves (code, number, colour, phrase, at) SELECT %s, %s, %s, %s, %s "
             "WHERE EXISTS (SELECT 1 FROM vj_tables WHERE code = %s AND owner = %s AND moves = %s)",
             (code, number, colour, phrase, now, code, self.server_id, number - 1), True),
            table,
        ])

    async def undo_move(self, code: str, number: int, state: str, now: float) -> None:
        """Take back move ``number``, the table's last: its row goes, and ``state`` (the table file before it)
        becomes the snapshot, so nothing is replayed over it; TableLost if another server owns the table or
        another move came first."""
        await self._write([
            ("DELETE FROM vj_moves WHERE code = %s AND number = %s "
             "AND EXISTS (SELECT 1 FROM vj_tables WHERE code = %s AND owner = %s AND moves = %s)",
             (code, number, code, self.server_id, number), True),
            ("UPDATE vj_tables SET updated = %s, moves = %s, state = %s, state_moves = %s, status = 'playing', "
             "winner = NULL WHERE code = %s AND owner = %s AND moves = %s",
             (now, number - 1, state, number - 1, code, self.server_id, number), True),
        ])

    async def update_seat(self, code: str, seat: SeatRow, now: float, state: str | None = None,
                          moves: int = 0) -> None:
        """Store who holds a seat; ``state`` too (after ``moves`` moves) when the table file changed with it."""
        owned = self._owned(code, now) if state is None else (
            "UPDATE vj_tables SET updated = %s, state = %s, state_moves = %s WHERE code = %s AND owner = %s AND moves = %s",
            (now, state, moves, code, self.server_id, moves), True)
        await self._write([
            owned,
            ("UPDATE vj_seats SET name = %s, token_hash = %s, control = %s WHERE code = %s AND colour = %s "
             "AND EXISTS (SELECT 1 FROM vj_tables WHERE code = %s AND owner = %s)",
             (seat.name, seat.token_hash, seat.control, code, seat.colour, code, self.server_id), True),
        ])

    async def renew(self, codes: Sequence[str], now: float) -> None:
        """Keep the leases of the tables this server serves (one statement for all of them)."""
        if codes:
            await self._write([("UPDATE vj_tables SET lease_until = %s WHERE owner = %s",
                                (now + self.lease, self.server_id), False)])

    async def release(self, code: str) -> None:
        """Let another server take the table at once (clean stop, or the table went idle)."""
        await self._write([("UPDATE vj_tables SET owner = NULL, lease_until = 0 WHERE code = %s AND owner = %s",
                            (code, self.server_id), False)])

    async def delete_finished(self, idle_before: float, now: float, in_use: Collection[str] = ()) -> list[str]:
        """Delete the finished tables unchanged since ``idle_before`` that nobody is at: not those this server has
        players at (``in_use``), nor those another live server holds (it deletes them once its players leave)."""
        rows = await self._fetch(
            "SELECT code FROM vj_tables WHERE status = 'finished' AND updated < %s "
            "AND (owner IS NULL OR owner = %s OR lease_until < %s)", (idle_before, self.server_id, now))
        codes = [str(row[0]) for row in rows if str(row[0]) not in in_use]
        for code in codes:
            await self._write([(f"DELETE FROM {name} WHERE code = %s", (code,), False)
                               for name in ("vj_moves", "vj_seats", "vj_tables")])
        return codes

    # -- reads

    async def claim(self, code: str, now: float) -> TableRow | None:
        """Own the table and read it; None when no such table; TableElsewhere when another live server has it."""
        changed = await self._claim(code, now)
        if not changed:
            rows = await self._fetch("SELECT lease_until FROM vj_tables WHERE code = %s", (code,))
            if not rows:
                return None
            raise TableElsewhere(max(0.1, float(rows[0][0]) - now))
        return await self.load(code)

    async def load(self, code: str) -> TableRow | None:
        rows = await self._fetch(
            "SELECT code, rules, kinds, moves, status, winner, state, state_moves, updated FROM vj_tables "
            "WHERE code = %s", (code,))
        if not rows:
            return None
        seats = await self._fetch(
            "SELECT colour, name, token_hash, control FROM vj_seats WHERE code = %s", (code,))
        later = await self._fetch("SELECT phrase FROM vj_moves WHERE code = %s AND number > %s ORDER BY number",
                                  (code, int(rows[0][7])))
        return _table_row(rows[0], [SeatRow(str(s[0]), str(s[1]), s[2], str(s[3])) for s in seats],
                          [str(m[0]) for m in later])

    async def list_tables(self) -> list[TableRow]:
        rows = await self._fetch(
            "SELECT code, rules, kinds, moves, status, winner, '', 0, updated FROM vj_tables ORDER BY created", ())
        return [_table_row(row, [], []) for row in rows]

    async def moves(self, code: str) -> list[tuple[int, str, str]]:
        rows = await self._fetch("SELECT number, colour, phrase FROM vj_moves WHERE code = %s ORDER BY number", (code,))
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def claim_sql(self) -> str:
        if self.exclusive:
            return "UPDATE vj_tables SET owner = %s, lease_until = %s WHERE code = %s"
        return ("UPDATE vj_tables SET owner = %s, lease_until = %s WHERE code = %s "
                "AND (owner IS NULL OR owner = %s OR lease_until < %s)")


def _table_row(row: tuple[Any, ...], seats: list[SeatRow], later: list[str]) -> TableRow:
    return TableRow(str(row[0]), str(row[1]), str(row[2]), int(row[3]), str(row[4]),
                    None if row[5] is None else str(row[5]), str(row[6]), int(row[7]), float(row[8]), seats, later)


class SqliteStorage(Storage):
    """One file; WAL journal, so a committed move survives the process being killed at any instant.

    SQLite is called from one worker thread of its own, never from the event loop: a commit (and now
    and then a checkpoint that waits for the disk) must not hold up every other table's messages.
    """

    exclusive = True

    def __init__(self, path: str, server_id: str, lease: float) -> None:
        super().__init__(server_id, lease)
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._lock_file: IO[bytes] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")

    async def _in_thread(self, call: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

    async def _connect(self) -> None:
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        if not self.reading_only:
            self._lock_file = open(self.path + ".lock", "wb")
            try:
                fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._lock_file.close()
                raise OSError(f"another server is using {self.path}; for several servers use PostgreSQL") from None
        await self._in_thread(self._open_in_thread)

    def _open_in_thread(self) -> None:
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            for sql in SCHEMA:
                self._db.execute(sql)
        except sqlite3.Error as error:
            raise DatabaseError(f"{self.path}: {error}") from None

    async def _disconnect(self) -> None:
        if self._db is not None:
            await self._in_thread(self._db.close)
        self._thread.shutdown(wait=True)
        if self._lock_file is not None:
            self._lock_file.close()

    def _sql(self, sql: str) -> str:
        return sql.replace("%s", "?")

    async def _batch(self, writes: Sequence[list[Statement]]) -> list[BaseException | None]:
        results: list[BaseException | None] = await self._in_thread(lambda: self._batch_in_thread(writes))
        return results

    def _batch_in_thread(self, writes: Sequence[list[Statement]]) -> list[BaseException | None]:
        assert self._db is not None
        db = self._db
        results: list[BaseException | None] = []
        db.execute("BEGIN IMMEDIATE")
        try:
            for statements in writes:
                db.execute("SAVEPOINT one_write")
                results.append(_run(lambda sql, params: db.execute(self._sql(sql), params).rowcount, statements,
                                    sqlite3.IntegrityError))
                if results[-1] is not None:
                    db.execute("ROLLBACK TO one_write")  # a refused write undoes only itself
                db.execute("RELEASE one_write")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return results

    async def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        assert self._db is not None
        db = self._db
        rows: list[tuple[Any, ...]] = await self._in_thread(lambda: db.execute(self._sql(sql), params).fetchall())
        return list(rows)

    async def _claim(self, code: str, now: float) -> int:
        await self.flush()
        assert self._db is not None
        db = self._db
        params = (self.server_id, now + self.lease, code)
        changed: int = await self._in_thread(lambda: db.execute(self._sql(self.claim_sql()), params).rowcount)
        return changed


def _run(execute: Any, statements: list[Statement], integrity: type[BaseException]) -> BaseException | None:
    for sql, params, must_change in statements:
        try:
            changed = execute(sql, params)
        except integrity:
            return TableLost("another server wrote this table first")
        if must_change and changed == 0:
            return TableLost("this server does not own the table")
    return None


class PostgresStorage(Storage):
    """PostgreSQL through psycopg 3 (asyncio): several servers share tables, one owner per table at a time."""

    def __init__(self, dsn: str, server_id: str, lease: float) -> None:
        super().__init__(server_id, lease)
        self.dsn = dsn
        self._db: Any = None
        self._lock = asyncio.Lock()

    async def _connect(self) -> None:
        import psycopg

        try:
            self._db = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        except psycopg.Error as error:
            raise DatabaseError(f"cannot reach the PostgreSQL database: {error}") from None
        async with self._db.transaction():
            await self._db.execute("SELECT pg_advisory_xact_lock(740014)")  # two servers starting at once
            for sql in SCHEMA:
                await self._db.execute(sql)

    async def _disconnect(self) -> None:
        if self._db is not None:
            await self._db.close()

    async def _batch(self, writes: Sequence[list[Statement]]) -> list[BaseException | None]:
        """One transaction for the whole batch, every statement sent at once (psycopg's pipeline mode).

        Each statement of a write carries the write's own guard (the owner and the move number, or the
        table created just now), so the statements of a refused write all change nothing, and no
        savepoints or round trips between statements are needed.
        """
        results: list[BaseException | None] = []
        async with self._lock, self._db.transaction():
            sent: list[list[tuple[Any, bool]]] = []
            async with self._db.pipeline() as pipeline:
                for statements in writes:
                    sent.append([(await self._db.execute(sql, params), must_change)
                                 for sql, params, must_change in statements])
                await pipeline.sync()
            for cursors in sent:
                changed_all = all(cursor.rowcount > 0 for cursor, must_change in cursors if must_change)
                results.append(None if changed_all else TableLost("this server does not own the table"))
        return results

    async def _fetch(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        async with self._lock:
            cursor = await self._db.execute(sql, params)
            return list(await cursor.fetchall())

    async def _claim(self, code: str, now: float) -> int:
        async with self._lock:
            cursor = await self._db.execute(self.claim_sql(), (self.server_id, now + self.lease, code,
                                                              self.server_id, now))
            return int(cursor.rowcount)


def open_storage(target: str, server_id: str, lease: float) -> Storage:
    if target.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(target, server_id, lease)
    return SqliteStorage(os.path.expanduser(target), server_id, lease)
