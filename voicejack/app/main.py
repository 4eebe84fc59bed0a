"""The `voicejack` command: a thin dispatcher to each subsystem's own CLI.

Each subcommand is a module of this application layer, imported only when
used, so `voicejack moves` never loads audio or speech libraries.
Every handler takes the remaining argv and returns an exit status.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from voicejack.app.common import EXIT_INTERRUPTED

# name -> (module, function, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "play": ("voicejack.app.play", "play_main", "start a match (the default with no arguments)"),
    "resume": ("voicejack.app.play", "resume_main", "continue a saved match"),
    "demo": ("voicejack.app.play", "demo_main", "bots only, narrated with sound"),
    "new": ("voicejack.app.positions", "new_main", "write a fresh table file after the first deal"),
    "moves": ("voicejack.app.positions", "moves_main", "print the legal move phrases of a table file"),
    "apply": ("voicejack.app.positions", "apply_main", "apply one move phrase to a table file"),
    "describe": ("voicejack.app.describe", "describe_main", "print every legal phrase with its description"),
    "board": ("voicejack.app.describe", "board_main", "print the board readout of a table file"),
    "hear": ("voicejack.app.hear", "hear_main", "show what the game would do on hearing some text or a WAV file"),
    "model": ("voicejack.app.speech_tools", "model_main", "list, download or verify speech models"),
    "devices": ("voicejack.app.speech_tools", "devices_main", "list audio input and output devices"),
    "sounds": ("voicejack.app.sounds", "sounds_main", "build the cue pack into sounds/"),
    "serve": ("voicejack.app.serve", "serve_main", "run a table server that friends join over the network"),
    "join": ("voicejack.app.join", "join_main", "take a free seat at a server's table by its code"),
    "watch": ("voicejack.app.join", "watch_main", "listen to a server's table as a spectator"),
    "host": ("voicejack.app.join", "host_main", "create a table on a server, take its first seat and say its code"),
    "tables": ("voicejack.app.serve", "tables_main", "list the tables in a server's database"),
    "export": ("voicejack.app.serve", "export_main", "write a server's table as an ordinary table file"),
}


def usage() -> str:
    width = max(len(name) for name in SUBCOMMANDS)
    lines = ["usage: voicejack [COMMAND] [OPTIONS]", "", "With no command, starts a match against bots.", "", "commands:"]
    for name, (_, _, help_text) in SUBCOMMANDS.items():
        lines.append(f"  {name.ljust(width)}  {help_text}")
    lines.append("")
    lines.append("Run 'voicejack COMMAND --help' for a command's options.")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    if args and args[0] == "--version":
        from voicejack import __version__

        print(f"voicejack {__version__}")
        return 0
    if not args or args[0].startswith("-"):
        name, rest = "play", args
    else:
        name, rest = args[0], args[1:]
    if name not in SUBCOMMANDS:
        print(f"voicejack: unknown command '{name}'.\n\n{usage()}", file=sys.stderr)
        return 2
    module_name, function_name, _ = SUBCOMMANDS[name]
    handler = getattr(importlib.import_module(module_name), function_name)
    try:
        return int(handler(rest) or 0)
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`voicejack moves T | head -1`): not an error worth a traceback.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
