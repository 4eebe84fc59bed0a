"""`voicejack serve`, `voicejack tables`, `voicejack export`: running a table server and looking into its database."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from voicejack.app.common import CommandParser, complain
from voicejack.server.storage import DatabaseError

if TYPE_CHECKING:
    from voicejack.engine import GameState
    from voicejack.server.storage import Storage

DEFAULT_DB = "voicejack-tables.sqlite"


def _db_option(parser: CommandParser) -> None:
    parser.add_argument("--db", default=DEFAULT_DB, metavar="PATH|postgresql://...",
                        help=f"a SQLite file (default: {DEFAULT_DB}) or a PostgreSQL address for several servers")


def serve_main(argv: Sequence[str]) -> int:
    from voicejack.server.server import ServerConfig, TableServer
    from voicejack.server.table import TableTiming

    parser = CommandParser(prog="voicejack serve", description="Run a table server that friends join over the network.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: every network)")
    parser.add_argument("--port", type=int, default=8765)
    _db_option(parser)
    parser.add_argument("--grace", type=float, default=60.0, metavar="SECONDS",
                        help="how long a dropped player's seat waits before a bot takes it (default 60)")
    parser.add_argument("--turn-timeout", type=float, default=300.0, metavar="SECONDS",
                        help="a player silent this long on their turn has a bot play that turn (0: never)")
    parser.add_argument("--bot-delay", type=float, default=1.5, metavar="SECONDS", help="a bot's pause before it plays")
    parser.add_argument("--ready-within", type=float, default=20.0, metavar="SECONDS",
                        help="a turn's clock (online rules) or a pause for undo starts when the player's client says "
                             "it has spoken the turn, or after this long anyway (default 20)")
    parser.add_argument("--undo-limit", type=float, default=10.0, metavar="SECONDS",
                        help="the longest pause for undo a player's client may ask for before a bot plays (default 10)")
    parser.add_argument("--lease", type=float, default=10.0, metavar="SECONDS",
                        help="PostgreSQL: how soon another server may take the tables of a server that died")
    parser.add_argument("--cleanup-after", type=float, default=86400.0, metavar="SECONDS",
                        help="finished tables nobody is at are deleted after this long (default a day)")
    parser.add_argument("--release-after", type=float, default=600.0, metavar="SECONDS",
                        help="a table nobody is at leaves memory after this long (it stays stored)")
    parser.add_argument("--hello-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="a connection that names no table within this time is closed")
    parser.add_argument("--max-rate", type=float, default=20.0, metavar="PER_SECOND",
                        help="messages a second a client may send on average (twice that at once); more is flooding")
    parser.add_argument("--outbox", type=int, default=512, metavar="MESSAGES",
                        help="messages waiting for a client that does not read before it is disconnected")
    args = parser.parse_args(argv)
    _allow_many_connections()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    logging.getLogger("websockets").setLevel(logging.WARNING)
    config = ServerConfig(host=args.host, port=args.port, db=args.db, lease=args.lease,
                          cleanup_after=args.cleanup_after, release_after=args.release_after,
                          first_message_within=args.hello_timeout,
                          rate=args.max_rate, burst=2 * args.max_rate, outbox=args.outbox,
                          timing=TableTiming(grace=args.grace, bot_delay=args.bot_delay, turn_timeout=args.turn_timeout,
                                             ready_within=args.ready_within, undo_limit=args.undo_limit))
    try:
        asyncio.run(TableServer(config).run_until_signalled())
    except (OSError, DatabaseError) as error:  # the port is taken, the file is in use, the database is out of reach
        return complain(parser.prog, _one_line(error))
    return 0


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _allow_many_connections() -> None:
    """Every connection is a file descriptor: raise the soft limit to what the system allows."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _storage(db: str) -> Storage:
    from voicejack.server.storage import open_storage

    return open_storage(db, "reader", 0.0)


async def _read_tables(db: str) -> list[tuple[str, str, str, int, str, str]]:
    storage = _storage(db)
    await storage.open_for_reading()
    try:
        rows = await storage.list_tables()
    finally:
        await storage.close()
    return [(r.code, r.rules, r.kinds, r.moves, r.status, r.winner or "-") for r in rows]


def tables_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack tables", description="List the tables in a server's database.")
    _db_option(parser)
    args = parser.parse_args(argv)
    if not args.db.startswith("postgres") and not Path(args.db).exists():
        return complain(parser.prog, f"no database at {args.db}")
    try:
        rows = asyncio.run(_read_tables(args.db))
    except (OSError, DatabaseError) as error:
        return complain(parser.prog, _one_line(error))
    header = ("code", "rules", "seats", "moves", "state", "winner")
    table = [header] + [tuple(str(item) for item in row) for row in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    print(f"{len(rows)} table" + ("" if len(rows) == 1 else "s"))
    return 0


async def _read_one(db: str, code: str) -> GameState | None:
    from voicejack.server.table import restore_state

    storage = _storage(db)
    await storage.open_for_reading()
    try:
        row = await storage.load(code)
    finally:
        await storage.close()
    return None if row is None else restore_state(row)


def export_main(argv: Sequence[str]) -> int:
    from voicejack.server.codes import normalise_code
    from voicejack.tablefile import save_table

    parser = CommandParser(prog="voicejack export", description="Write one server table as an ordinary table file.")
    _db_option(parser)
    parser.add_argument("code", nargs="+", help="the table code, e.g. amber tiger seven")
    parser.add_argument("--out", required=True, metavar="FILE.json")
    args = parser.parse_args(argv)
    code = normalise_code(" ".join(args.code))
    if code is None:
        return complain(parser.prog, f"'{' '.join(args.code)}' is not a table code (three words like amber tiger seven)")
    if not args.db.startswith("postgres") and not Path(args.db).exists():
        return complain(parser.prog, f"no database at {args.db}")
    try:
        state = asyncio.run(_read_one(args.db, code))
    except (OSError, DatabaseError) as error:
        return complain(parser.prog, _one_line(error))
    if state is None:
        return complain(parser.prog, f"there is no table {code} in {args.db}")
    save_table(state, args.out)
    print(f"Wrote table {code} to {args.out}.")
    return 0
