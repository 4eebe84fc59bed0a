"""The table's small types: seat kinds parsed in one place, and a handler for every command."""

from __future__ import annotations

import pytest

from voicejack.bots import BOT_KINDS
from voicejack.language.resolution import CommandName
from voicejack.table.commands import HANDLERS
from voicejack.table.seats import BOT, HUMAN, SeatKind


@pytest.mark.parametrize("text", ["human", *BOT_KINDS])
def test_every_seat_kind_of_a_table_file_reads_back_as_written(text: str) -> None:
    kind = SeatKind.parse(text)
    assert str(kind) == text and kind.bot == (text != "human")


def test_seat_kinds_are_read_case_and_space_insensitively() -> None:
    assert SeatKind.parse(" Human ") == HUMAN and SeatKind.parse("BOT") == BOT
    assert SeatKind.parse("bot:hard") == SeatKind(True, "hard")


@pytest.mark.parametrize("text", ["robot", "bot:genius", "human:hard", "hard", ""])
def test_an_unknown_seat_kind_names_the_accepted_ones(text: str) -> None:
    with pytest.raises(ValueError, match="bot:hard"):
        SeatKind.parse(text)


def test_every_command_has_a_handler() -> None:
    assert set(HANDLERS) == set(CommandName)
