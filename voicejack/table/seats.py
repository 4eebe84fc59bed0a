"""Who sits in a seat: a person or a bot of some level, parsed from the table file's text in one place."""

from __future__ import annotations

from dataclasses import dataclass

from voicejack.bots import ALL_BOT_KINDS, bot_level

HUMAN_TEXT = "human"
BOT_TEXT = "bot"


@dataclass(frozen=True, slots=True)
class SeatKind:
    """A seat's kind: ``human``, ``bot`` (the default level) or ``bot:<level>`` (the expert with its options,
    ``bot:expert:think=0.5``)."""

    bot: bool
    level: str | None = None  # only for a bot, None meaning the default level; options follow the level

    @classmethod
    def parse(cls, text: str) -> SeatKind:
        """The kind a table file or --seats names; ValueError naming the accepted kinds otherwise."""
        word = text.strip().lower()
        if word == HUMAN_TEXT:
            return HUMAN
        if word == BOT_TEXT:
            return BOT
        if not word.startswith(f"{BOT_TEXT}:"):
            raise ValueError(f"seat kind {text!r} is not one of {HUMAN_TEXT}, {', '.join(ALL_BOT_KINDS)}")
        bot_level(word)  # a ValueError naming the accepted kinds (and the expert's options) for anything else
        return cls(True, word.removeprefix(f"{BOT_TEXT}:"))

    def __str__(self) -> str:
        if not self.bot:
            return HUMAN_TEXT
        return BOT_TEXT if self.level is None else f"{BOT_TEXT}:{self.level}"


HUMAN = SeatKind(False)
BOT = SeatKind(True)
