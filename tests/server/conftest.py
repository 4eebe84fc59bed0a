"""Real table servers on 127.0.0.1 (random free ports), a private PostgreSQL cluster, and auto-playing clients."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from voicejack.bots import make_bot
from voicejack.engine import apply_move, find_move, legal_moves, make_rules, new_game
from voicejack.engine.state import Seat
from voicejack.tablefile import table_to_dict
from voicejack.remote.session import Intent, Line, Played, Refusal, SeatNews, SeatStore, Session, Snapshot

# --import-mode=importlib adds no test folder to sys.path; the raw-protocol helpers live in server_wire.py.
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: The `voicejack` command, run by this interpreter.
VOICEJACK = [sys.executable, "-c", "import sys; from voicejack.app.main import main; sys.exit(main(sys.argv[1:]))"]
SERVING = re.compile(r"serving tables on ws://127\.0\.0\.1:(\d+)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """`voicejack serve` in its own process; its log is kept for the assertions."""

    def __init__(self, db: str, log: Path, port: int = 0, **options: float) -> None:
        self.db, self.log_path, self.options = db, log, options
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        args = [*VOICEJACK, "serve", "--port", str(self.port), "--db", self.db]
        for key, value in self.options.items():
            args += [f"--{key.replace('_', '-')}", str(value)]
        stream = open(self.log_path, "ab")
        self.process = subprocess.Popen(args, stdout=stream, stderr=stream, stdin=subprocess.DEVNULL)
        stream.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            found = SERVING.findall(self.log)
            if found and (self.port == 0 or int(found[-1]) == self.port):
                self.port = int(found[-1])
                return self
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped at once:\n{self.log}")
            time.sleep(0.05)
        raise RuntimeError(f"the server did not start:\n{self.log}")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def terminate(self) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(10)


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Every server a test starts; whatever is still running at the end is stopped by its own pid."""
    started: list[ServerProcess] = []
    yield started
    for server in started:
        if server.process is not None and server.process.poll() is None:
            server.process.kill()
            server.process.wait(10)


@pytest.fixture
def start_server(servers: list[ServerProcess], tmp_path: Path):  # type: ignore[no-untyped-def]
    def start(db: str | None = None, port: int = 0, **options: float) -> ServerProcess:
        options = {"grace": 60, "bot_delay": 0, "max_rate": 2000, **options}  # bots on both sides play fast
        server = ServerProcess(db or str(tmp_path / "tables.sqlite"), tmp_path / f"server{len(servers)}.log", port, **options)
        servers.append(server)
        return server.start()
    return start


class Player(threading.Thread):
    """A client seat that plays by itself: the real Session, a bot choosing among the view's legal moves."""

    def __init__(self, urls: list[str], intent: Intent, store: SeatStore, label: str) -> None:
        super().__init__(daemon=True, name=label)
        self.session = Session(urls, intent, store, retry=0.1, keep_messages=True)
        self.news: list[Any] = []
        self.played = 0            # moves this client sent that the server played
        self.paused = threading.Event()
        self.finished = threading.Event()
        self._halt = threading.Event()
        self._in_flight = False

    def run(self) -> None:
        self.session.start()
        while not self._halt.is_set():
            for item in self.session.news(0.05):
                self.news.append(item)
                if isinstance(item, (Snapshot, Refusal)):
                    self._in_flight = False
                if isinstance(item, Played) and item.colour == self.session.colour and self._in_flight:
                    self._in_flight = False
                    self.played += 1
            state = self.session.state
            if state is None:
                continue
            if state.winner is not None:
                self.finished.set()
                continue
            view = self.session.view or {}
            started = all(p["control"] != "open" for p in view.get("players", []))
            if state.turn == self.session.colour and started and not self._in_flight and not self.paused.is_set():
                moves = legal_moves(state)
                seed = self.session.moves
                move = make_bot("bot:easy", seed=seed).choose(state, moves)
                if self.session.send_move(move.phrase):
                    self._in_flight = True
        self.session.close()

    def stop(self) -> None:
        self._halt.set()
        self.join(10)

    @property
    def moves(self) -> int:
        return self.session.moves

    def seat_events(self) -> list[tuple[str, str]]:
        return [(n.colour, n.event) for n in self.news if isinstance(n, SeatNews)]

    def line_events(self) -> list[bool]:
        return [n.up for n in self.news if isinstance(n, Line)]

    def wait(self, condition: Any, timeout: float = 30.0, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.02)
        raise AssertionError(f"{self.name}: timed out waiting for {what or condition}")


@pytest.fixture
def players(tmp_path: Path) -> Iterator[Any]:
    made: list[Player] = []

    def make(urls: list[str], intent: Intent, label: str, store: SeatStore | None = None) -> Player:
        player = Player(urls, intent, store or SeatStore(tmp_path / f"{label}-seats.json"), label)
        made.append(player)
        player.start()
        return player

    yield make
    for player in made:
        player.stop()


# ---------------------------------------------------------------------- PostgreSQL


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / name).exists():
            return str(folder / name)
    raise RuntimeError(f"PostgreSQL's {name} is not installed: apt-get install -y postgresql (.ci/run does it)")


def _as_postgres_user(args: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the 'postgres' user the package creates."""
    if os.geteuid() != 0:
        return args
    return ["runuser", "-u", "postgres", "--", *args]


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """A private cluster in a temporary folder on a free loopback port; yields its address."""
    folder = Path(tempfile.mkdtemp(prefix="voicejack-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    port = free_port()
    subprocess.run(_as_postgres_user([_pg_bin("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                                      "-E", "UTF8", "--no-sync"]), check=True, capture_output=True)
    subprocess.run(_as_postgres_user([
        _pg_bin("pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-t", "30", "start",
        "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off",
    ]), check=True, capture_output=True)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres_user([_pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def fresh_postgres(postgres: str) -> str:
    import psycopg

    with psycopg.connect(postgres, autocommit=True) as db:
        for name in ("vj_moves", "vj_seats", "vj_tables"):
            db.execute(f"DROP TABLE IF EXISTS {name}")
    return postgres


def read_stored(db: str, code: str) -> tuple[list[str], dict[str, Any]]:
    """The move phrases of a stored table, in order, and its table file as stored."""
    moves = "SELECT phrase FROM vj_moves WHERE code = %s ORDER BY number"
    table = "SELECT state FROM vj_tables WHERE code = %s"
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db) as pg:
            phrases = [row[0] for row in pg.execute(moves, (code,))]
            row = pg.execute(table, (code,)).fetchone()
    else:
        import sqlite3

        with sqlite3.connect(db) as lite:
            phrases = [row[0] for row in lite.execute(moves.replace("%s", "?"), (code,))]
            row = lite.execute(table.replace("%s", "?"), (code,)).fetchone()
    assert row is not None
    return phrases, json.loads(row[0])


def assert_heard_is_stored(db: str, code: str, player: Player) -> None:
    """Every move the player was told of (before and after any crash) is the stored move of that number."""
    phrases, _ = read_stored(db, code)
    heard = [(item.moves, item.phrase) for item in player.news if isinstance(item, Played)]
    assert heard and all(phrases[number - 1] == phrase for number, phrase in heard)


def replay(exported: dict[str, Any], phrases: list[str], seed: int) -> dict[str, Any]:
    """The table reached by playing ``phrases`` from a fresh deal with ``seed``."""
    rules = make_rules(len(exported["players"]), exported.get("teams", False), exported["mode"])
    seats = tuple(Seat(p["colour"], p["name"], p["kind"]) for p in exported["players"])
    state, _ = new_game(rules, seed=seed, seats=seats)
    for phrase in phrases:
        apply_move(state, find_move(state, phrase))
    return table_to_dict(state)


def assert_replays(db: str, code: str, seed: int) -> None:
    """The stored table is exactly what its stored moves give from the first deal: no move lost, none forked,
    every deal the same as an uninterrupted match would have dealt (the generator state was kept)."""
    phrases, exported = read_stored(db, code)
    again = replay(exported, phrases, seed)
    for key in ("marbles", "pile", "discard", "rng", "turn", "winner", "dealer", "deal"):
        assert again.get(key) == exported.get(key), key
    assert [p["hand"] for p in again["players"]] == [p["hand"] for p in exported["players"]]


_unread: weakref.WeakKeyDictionary[Session, list[Any]] = weakref.WeakKeyDictionary()  # news that came in one batch after the item a test waited for


def until(session: Session, wanted: Callable[[Any], bool], seen: list[Any] | None = None, timeout: float = 20.0) -> Any:
    """The first piece of news for which ``wanted`` holds; everything heard on the way is kept in ``seen``, and
    whatever came after it in the same batch is kept for the next call."""
    deadline = time.monotonic() + timeout
    backlog = _unread.setdefault(session, [])
    while time.monotonic() < deadline:
        if not backlog:
            backlog.extend(session.news(0.05))
        while backlog:
            item = backlog.pop(0)
            if seen is not None:
                seen.append(item)
            if wanted(item):
                return item
    raise AssertionError("the server did not say it in time")


def seated(url: str, intent: Intent, store: Path) -> Session:
    """A client session that has taken its seat (the first snapshot has arrived), keeping the raw messages."""
    session = Session([url], intent, SeatStore(store), retry=0.1, keep_messages=True)
    session.start()
    until(session, lambda item: isinstance(item, Snapshot))
    return session


class Kit:
    """The helpers for module-scoped fixtures, which cannot use the function-scoped ones above."""

    ServerProcess = ServerProcess
    read_stored = staticmethod(read_stored)
    assert_replays = staticmethod(assert_replays)
    assert_heard_is_stored = staticmethod(assert_heard_is_stored)
    Player = Player
    voicejack = VOICEJACK
    free_port = staticmethod(free_port)
    until = staticmethod(until)
    seated = staticmethod(seated)


@pytest.fixture(scope="session")
def kit() -> type[Kit]:
    return Kit
