"""Who sits in a seat: a person or a bot of some level, parsed from the table file's text in one place."""

from __future__ import annotations

from dataclasses import dataclass

from voicejack.bots import BOT_KINDS, BOT_LEVELS

HUMAN_TEXT = "human"
BOT_TEXT = "bot"


@dataclass(frozen=True, slots=True)
class SeatKind:
    """A seat's kind: ``human``, ``bot`` (the default level) or ``bot:<level>``."""

    bot: bool
    level: str | None = None  # only for a bot, None meaning the default level

    @classmethod
    def parse(cls, text: str) -> SeatKind:
        """The kind a table file or --seats names; ValueError naming the accepted kinds otherwise."""
        word = text.strip().lower()
        if word == HUMAN_TEXT:
            return HUMAN
        if word == BOT_TEXT:
            return BOT
        level = word.removeprefix(f"{BOT_TEXT}:")
        if word.startswith(f"{BOT_TEXT}:") and level in BOT_LEVELS:
            return cls(True, level)
        raise ValueError(f"seat kind {text!r} is not one of {HUMAN_TEXT}, {', '.join(BOT_KINDS)}")

    def __str__(self) -> str:
        if not self.bot:
            return HUMAN_TEXT
        return BOT_TEXT if self.level is None else f"{BOT_TEXT}:{self.level}"


HUMAN = SeatKind(False)
BOT = SeatKind(True)
