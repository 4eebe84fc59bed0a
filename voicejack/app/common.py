"""What every `voicejack` subcommand shares: one-line mistakes with exit status 2, and loading a table file."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from voicejack.engine import GameState

EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2


class CommandParser(argparse.ArgumentParser):
    """argparse that reports a usage mistake on one line and exits with status 2 (0 after --help)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}\n")


def complain(prog: str, message: str) -> int:
    """Tell the user what is wrong, on stderr; the exit status for a bad input."""
    print(f"{prog}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def load_table_or_complain(path: str, prog: str) -> GameState | None:
    """The table in ``path``, or None after saying on stderr why it cannot be loaded."""
    from voicejack.tablefile import TableFileError, load_table

    try:
        return load_table(path)
    except TableFileError as error:
        complain(prog, str(error))
        return None
