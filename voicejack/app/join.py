"""`voicejack join`, `voicejack watch`, `voicejack host` (and `voicejack play --server`): a server's table here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from voicejack.app.common import CommandParser, add_table_options, add_think_option, complain
from voicejack.app.play import _common_options, _open_audio, _open_voice, _remember, _settings_from, table_from_options
from voicejack.engine import Rules
from voicejack.engine.state import Seat
from voicejack.remote.session import Intent, SeatStore, Session
from voicejack.remote.table import RemoteConfig, RemoteTable
from voicejack.server.codes import normalise_code
from voicejack.server.protocol import MAX_NAME_CHARS
from voicejack.table.inputs import InputHub, KeyboardSource
from voicejack.table.messages import say
from voicejack.table.presenter import Presenter

SERVER_HELP = "the server, e.g. ws://192.168.1.20:8765 (several, comma-separated, to fail over between them)"


def _urls(text: str) -> list[str]:
    urls = [url.strip() for url in text.split(",") if url.strip()]
    for url in urls:
        if not url.startswith(("ws://", "wss://")):
            raise ValueError(f"'{url}' is not a server address: it starts with ws:// (or wss://)")
    if not urls:
        raise ValueError("name a server, like ws://192.168.1.20:8765")
    return urls


def _names(*names: str | None) -> None:
    """Names the server would refuse, refused here in words, before any connection."""
    for name in names:
        if name is not None and (not name.strip() or len(name.strip()) > MAX_NAME_CHARS):
            raise ValueError(f"'{name}' cannot be a name at the table: 1 to {MAX_NAME_CHARS} characters")


def _code(words: Sequence[str]) -> str:
    code = normalise_code(" ".join(words))
    if code is None:
        raise ValueError(f"'{' '.join(words)}' is not a table code: three words like amber tiger seven")
    return code


def _run(urls: list[str], intent: Intent, args: argparse.Namespace, seated: bool) -> int:
    settings, warning = _settings_from(args)
    audio, sound_note = (None, None) if args.no_sound else _open_audio(settings, args.record)
    presenter = Presenter(audio)
    for note in (sound_note, warning):
        if note:
            presenter.say(note, remember=False)
    hub = InputHub()
    if seated:
        voice, reason = (None, "you asked for the keyboard") if args.keyboard else _open_voice(settings, presenter)
        if voice is not None:
            from voicejack.table.listening import mode_intro

            hub.add(voice)
            presenter.say([say("welcome.voice"), mode_intro(voice.gate, settings.brief)], remember=False)
        else:
            presenter.say([say("welcome.keyboard"), say("why.keyboard", reason=reason)], remember=False)
    hub.add(KeyboardSource(sys.stdin))
    session = Session(urls, intent, SeatStore())
    table = RemoteTable(session, presenter, hub, RemoteConfig(urls[0], settings=settings, on_settings=_remember))
    try:
        return table.run()
    finally:
        hub.close()
        presenter.close()


def join_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack join", description="Take a free seat at a server's table, by its code.")
    parser.add_argument("server", help=SERVER_HELP)
    parser.add_argument("code", nargs="+", help="the table code, e.g. amber tiger seven")
    parser.add_argument("--name", help="your name at the table")
    _common_options(parser)
    args = parser.parse_args(argv)
    try:
        urls, code = _urls(args.server), _code(args.code)
        _names(args.name)
    except ValueError as error:
        return complain(parser.prog, str(error))
    return _run(urls, Intent("join", code=code, name=args.name), args, seated=True)


def watch_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack watch", description="Listen to a server's table as a spectator.")
    parser.add_argument("server", help=SERVER_HELP)
    parser.add_argument("code", nargs="+", help="the table code, e.g. amber tiger seven")
    _common_options(parser)
    args = parser.parse_args(argv)
    try:
        urls, code = _urls(args.server), _code(args.code)
    except ValueError as error:
        return complain(parser.prog, str(error))
    return _run(urls, Intent("watch", code=code), args, seated=False)


def table_options(rules: Rules, seats: Sequence[Seat], seed: int | None) -> dict[str, Any]:
    """The create message's table fields; seats that are not bots become seats for people."""
    options: dict[str, Any] = {
        "players": rules.players, "teams": rules.teams, "mode": rules.mode, "rules": rules.rule_set,
        "seats": [seat.kind if seat.kind.startswith("bot") else "human" for seat in seats],
        "names": [None if seat.name in ("You", seat.colour.capitalize()) else seat.name for seat in seats],
    }
    if seed is not None:
        options["seed"] = seed
    if rules.turn_seconds is not None:  # ON11's clock, run by the server (online rules only)
        options["turn_seconds"] = rules.turn_seconds
    return options


def host_remote(args: argparse.Namespace, rules: Rules, seats: Sequence[Seat], prog: str = "voicejack play") -> int:
    """`voicejack play --server URL ...`: create the table there, take its first free seat, say its code."""
    try:
        urls = _urls(args.server)
        _names(getattr(args, "name", None), *(seat.name for seat in seats))
    except ValueError as error:
        return complain(prog, str(error))
    intent = Intent("create", name=getattr(args, "name", None), options=table_options(rules, seats, args.seed))
    return _run(urls, intent, args, seated=any(not seat.kind.startswith("bot") for seat in seats))


def host_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack host", description="Create a table on a server and take its first seat.")
    parser.add_argument("server", help=SERVER_HELP)
    add_table_options(parser)
    parser.add_argument("--seats", help="seat kinds in seat order, e.g. human,bot,human,bot (default: you and bots)")
    add_think_option(parser)
    parser.add_argument("--names", help="seat names in seat order")
    parser.add_argument("--name", help="your name at the table")
    parser.add_argument("--seed", type=int, help="seed for the first dealer and every shuffle")
    _common_options(parser)
    args = parser.parse_args(argv)
    rules, seats = table_from_options(parser, args)
    return host_remote(args, rules, seats, parser.prog)
