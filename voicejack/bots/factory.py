"""Bots by the seat kinds of a table file: "bot", "bot:random", "bot:easy", "bot:medium", "bot:hard"."""

from __future__ import annotations

from voicejack.bots.base import Bot
from voicejack.bots.heuristic import DEFAULT_LEVEL, LEVELS, HeuristicBot
from voicejack.bots.random_bot import RandomBot

RANDOM = "random"
#: Every level a seat kind may name, weakest first; "bot" alone means DEFAULT_LEVEL.
BOT_LEVELS: tuple[str, ...] = (RANDOM, *LEVELS)
BOT_KINDS: tuple[str, ...] = ("bot", *(f"bot:{level}" for level in BOT_LEVELS))


def bot_level(kind: str) -> str:
    """The level a seat kind names: "bot" -> the default level, "bot:hard" (or plain "hard") -> "hard".

    Raises ValueError with the accepted kinds for anything else.
    """
    text = kind.strip().lower()
    if text == "bot":
        return DEFAULT_LEVEL
    level = text.removeprefix("bot:")
    if level in BOT_LEVELS:
        return level
    raise ValueError(f"unknown bot kind {kind!r}: use one of {', '.join(BOT_KINDS)}")


def make_bot(kind: str = "bot", seed: int = 0) -> Bot:
    """A bot for a seat kind, with its own generator seeded by ``seed``."""
    level = bot_level(kind)
    if level == RANDOM:
        return RandomBot(seed)
    return HeuristicBot(seed, level)
