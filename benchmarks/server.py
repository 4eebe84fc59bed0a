"""Table server load: many concurrent tables of bot clients over the loopback, SQLite and PostgreSQL.

    python3 benchmarks/server.py                         # 1,000 tables, SQLite then a private PostgreSQL
    python3 benchmarks/server.py --tables 200 --db sqlite
    python3 benchmarks/server.py --db postgresql://user@host/db

A `voicejack serve` process is started for each database. One client
process holds every seat of every table (4 websocket connections a table);
each client, on its turn, waits ``--think`` seconds (a person needs far
more) and sends a legal move its own view allows. A table that ends starts
a new one, so the number of tables stays constant.

Reported, over the measured window after the warm-up:

    moves/s       moves committed and broadcast, all tables together
    latency       from a client sending its move to each seated client at the table
                  receiving the broadcast (median and p95, every receiver counted),
                  so it includes the commit, 4 views, and both processes' queues
    memory/table  growth of the server's resident memory from before the first
                  table to the end, divided by the tables
    CPU           share of one core each process used (the server is one asyncio thread),
                  and the machine's load average, to tell a busy box from a slow server

Both processes share this machine's cores, so the client's own work counts
against the server's; the client process runs at a lower priority (nice 5),
as it stands for other people's machines. The numbers are honest for one
2-core box, including whatever else was running on it (the load average).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from voicejack.engine import MoveKind, legal_moves  # noqa: E402
from voicejack.server.protocol import state_from_view  # noqa: E402

SERVING = re.compile(r"serving tables on ws://127\.0\.0\.1:(\d+)")
VOICEJACK = [sys.executable, "-c", "import sys; from voicejack.app.main import main; sys.exit(main(sys.argv[1:]))"]


@dataclass
class Measure:
    started: float = 0.0
    measuring: bool = False
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)  # (code, move number) -> when it was sent
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)


_priority_lowered = False


def _lower_priority() -> None:
    """The clients stand for other people's machines: the server goes first for the CPU (nice 5, once).
    Like the server, they collect garbage rarely, so their own pauses do not count as the server's latency."""
    global _priority_lowered
    if not _priority_lowered:
        os.nice(5)
        _priority_lowered = True
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _cpu_seconds(pid: int) -> float:
    """User plus system time the process has used (from /proc: fields 14 and 15 of its stat line)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@contextmanager
def server_process(db: str, log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    stream = open(log, "wb")
    process = subprocess.Popen([*VOICEJACK, "serve", "--port", "0", "--db", db, "--bot-delay", "0", "--max-rate", "50",
                                "--grace", "600", "--turn-timeout", "0"], stdout=stream, stderr=stream)
    try:
        deadline = time.monotonic() + 20
        while not (found := SERVING.findall(log.read_text())):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{log.read_text()}")
            time.sleep(0.05)
        yield process, f"ws://127.0.0.1:{found[0]}"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
        stream.close()


@contextmanager
def private_postgres() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a free loopback port (as the 'postgres' user when run as root)."""
    def tool(name: str) -> str:
        found = shutil.which(name) or next((str(p / name) for p in sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                                                                          reverse=True) if (p / name).exists()), None)
        if found is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install -y postgresql)")
        return found

    def run(args: list[str]) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run(prefix + args, check=True, capture_output=True)

    import socket

    folder = Path(tempfile.mkdtemp(prefix="voicejack-bench-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    data = folder / "data"
    run([tool("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"])
    run([tool("pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "start",
         "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=50"])
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        run([tool("pg_ctl"), "-D", str(data), "-m", "fast", "stop"])
        shutil.rmtree(folder, ignore_errors=True)


async def _recv(ws: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(await ws.recv()))


async def seat(ws: ClientConnection, measure: Measure, think: float, rng: random.Random,
               joined: dict[str, Any] | None = None) -> None:
    """One seated bot client: moves on its turn, times every broadcast it receives against its send time.
    ``joined`` is the creator's "joined" message, which table_loop has read already."""
    view: dict[str, Any] | None = None
    answered = -1  # the move number this seat last answered, so a seat message never makes it play twice
    code = "" if joined is None else str(joined["code"])
    while True:
        message = await _recv(ws)
        kind = message["type"]
        if kind == "joined":
            code = message["code"]
        elif kind == "moved":
            sent = measure.sent.get((code, message["view"]["moves"]))
            if sent is not None and measure.measuring:
                measure.latencies.append(time.perf_counter() - sent)
                if message["colour"] == message["view"]["you"]:
                    measure.moves += 1
        elif kind == "error":
            measure.errors += 1
            measure.error_codes[message["code"]] = measure.error_codes.get(message["code"], 0) + 1
        if kind not in ("state", "moved", "seat"):
            continue
        if kind == "seat":
            if view is None:
                continue
            for player in view["players"]:
                player.update(message["seats"].get(player["colour"], {}))
        else:
            view = message["view"]
        if view["winner"] is not None:
            return
        started = all(p["control"] != "open" for p in view["players"])
        if started and view["turn"] == view["you"] and answered != view["moves"]:
            answered = view["moves"]
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            moves = legal_moves(state_from_view(view))
            if moves and not (len(moves) == 1 and moves[0].kind is MoveKind.BURN_HAND):  # R30: the server burns it
                measure.sent[(code, view["moves"] + 1)] = time.perf_counter()
                await ws.send(json.dumps({"v": 1, "type": "move", "phrase": moves[0].phrase, "seen": view["moves"]}))


async def table_loop(url: str, measure: Measure, think: float, seed: int, stop: asyncio.Event) -> None:
    """One table's four clients; when its match ends, a new table, until told to stop."""
    rng = random.Random(seed)
    while not stop.is_set():
        sockets = [await connect(url, compression=None, max_size=2**16) for _ in range(4)]
        try:
            await sockets[0].send(json.dumps({"v": 1, "type": "create", "players": 4, "teams": True,
                                              "seats": ["human"] * 4, "seed": rng.randrange(2**31)}))
            joined = await _recv(sockets[0])
            for ws in sockets[1:]:
                await ws.send(json.dumps({"v": 1, "type": "join", "code": joined["code"]}))
            seats = (seat(sockets[0], measure, think, rng, joined),
                     *(seat(ws, measure, think, rng) for ws in sockets[1:]))
            match: asyncio.Future[Any] = asyncio.gather(*seats, return_exceptions=True)
            stopper = asyncio.ensure_future(stop.wait())
            await asyncio.wait([match, stopper], return_when=asyncio.FIRST_COMPLETED)
            match.cancel()
            stopper.cancel()
            try:
                await match
            except (asyncio.CancelledError, ConnectionClosed):
                pass
        finally:
            for ws in sockets:
                await ws.close()


async def run_load(url: str, pid: int, tables: int, think: float, warmup: float, duration: float) -> dict[str, Any]:
    measure = Measure()
    stop = asyncio.Event()
    before = _rss_kib(pid)
    loops = []
    for number in range(tables):
        loops.append(asyncio.create_task(table_loop(url, measure, think, number, stop)))
        if number % 50 == 49:
            await asyncio.sleep(0.2)  # connect in waves, as people would
    await asyncio.sleep(warmup)
    measure.measuring = True
    measure.started = time.perf_counter()
    server_cpu, client_cpu = _cpu_seconds(pid), _cpu_seconds(os.getpid())
    await asyncio.sleep(duration)
    measure.measuring = False
    elapsed = time.perf_counter() - measure.started
    server_cpu, client_cpu = _cpu_seconds(pid) - server_cpu, _cpu_seconds(os.getpid()) - client_cpu
    after = _rss_kib(pid)
    stop.set()
    for task in loops:
        task.cancel()
    await asyncio.gather(*loops, return_exceptions=True)  # closing mid-match: those errors are expected
    latencies = sorted(measure.latencies) or [float("nan")]
    return {
        "tables": tables, "moves_per_s": measure.moves / elapsed,
        "median_ms": statistics.median(latencies) * 1000, "p95_ms": latencies[int(0.95 * (len(latencies) - 1))] * 1000,
        "kib_per_table": (after - before) / tables, "errors": measure.errors, "samples": len(measure.latencies),
        "error_codes": measure.error_codes,
        "server_cpu": server_cpu / elapsed, "client_cpu": client_cpu / elapsed,
        "load": os.getloadavg()[0],
    }


def measure_one(db: str, label: str, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        target = str(Path(folder) / "bench.sqlite") if db == "sqlite" else db
        log = Path(folder) / "server.log"
        with server_process(target, log) as (process, url):
            _lower_priority()
            result = asyncio.run(run_load(url, process.pid, args.tables, args.think, args.warmup, args.duration))
        slow = [line for line in log.read_text().splitlines() if "storage:" in line]
        result["slow_commits"] = len(slow)
        if slow:
            print(f"{label}: {len(slow)} slow commits, e.g. {slow[len(slow) // 2]}", file=sys.stderr)
    result["db"] = label
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--think", type=float, default=2.0, help="seconds a bot client waits before its move")
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--db", default="both", help="sqlite, postgres (a private cluster), both, or postgresql://...")
    args = parser.parse_args()
    _raise_file_limit()
    results = []
    with ExitStack() as stack:
        # PostgreSQL and each server start before this process lowers its own priority (they do not inherit it).
        dsn = stack.enter_context(private_postgres()) if args.db in ("postgres", "both") else args.db
        if args.db in ("sqlite", "both"):
            results.append(measure_one("sqlite", "SQLite", args))
        if dsn.startswith("postgresql://"):
            results.append(measure_one(dsn, "PostgreSQL", args))
    print(f"{args.tables} tables of 4 bot clients, think time {args.think} s, measured {args.duration:.0f} s "
          f"after {args.warmup:.0f} s warm-up")
    print("| database | tables | moves/s | latency median | latency p95 | server memory/table | server CPU | "
          "client CPU | load average | errors |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        print(f"| {r['db']} | {r['tables']} | {r['moves_per_s']:.0f} | {r['median_ms']:.1f} ms | {r['p95_ms']:.1f} ms | "
              f"{r['kib_per_table']:.0f} KiB | {r['server_cpu']:.0%} | {r['client_cpu']:.0%} | {r['load']:.1f} | "
              f"{r['errors']:.0f} {r['error_codes'] or ''} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
