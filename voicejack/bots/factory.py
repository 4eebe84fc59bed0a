"""Bots by the seat kinds of a table file: "bot", "bot:random", "bot:easy", "bot:medium", "bot:hard", "bot:expert".

The expert takes options after its kind: "bot:expert:think=0.5" (seconds a
decision may take), see ``voicejack.bots.expert.parse_expert_options``.
"""

from __future__ import annotations

from voicejack.bots.base import Bot
from voicejack.bots.expert import EXPERT_LEVEL, ExpertBot, parse_expert_options
from voicejack.bots.heuristic import DEFAULT_LEVEL, LEVELS, HeuristicBot
from voicejack.bots.random_bot import RandomBot

RANDOM = "random"
#: The levels that answer at once (no search), weakest first; "bot" alone means DEFAULT_LEVEL.
BOT_LEVELS: tuple[str, ...] = (RANDOM, *LEVELS)
BOT_KINDS: tuple[str, ...] = ("bot", *(f"bot:{level}" for level in BOT_LEVELS))
#: The searching bot's kind; it may carry options ("bot:expert:think=0.5").
EXPERT_KIND = f"bot:{EXPERT_LEVEL}"
ALL_BOT_KINDS: tuple[str, ...] = (*BOT_KINDS, EXPERT_KIND)


def _split(kind: str) -> tuple[str, str]:
    """(level, options text) of a seat kind; raises ValueError with the accepted kinds for anything else."""
    text = kind.strip()
    lowered = text.lower()
    if lowered == "bot":
        return DEFAULT_LEVEL, ""
    rest = text[4:] if lowered.startswith("bot:") else text
    level, _, options = rest.partition(":")
    level = level.strip().lower()
    if level in BOT_LEVELS and not options:
        return level, ""
    if level == EXPERT_LEVEL:
        return level, options
    raise ValueError(
        f"unknown bot kind {kind!r}: use one of {', '.join(ALL_BOT_KINDS)} (the expert with options, "
        f"like {EXPERT_KIND}:think=0.5)"
    )


def bot_level(kind: str) -> str:
    """The level a seat kind names: "bot" -> the default level, "bot:hard" (or plain "hard") -> "hard",
    "bot:expert:think=0.5" -> "expert".

    Raises ValueError with the accepted kinds for anything else, bad expert options included.
    """
    level, options = _split(kind)
    if level == EXPERT_LEVEL:
        parse_expert_options(options)
    return level


def with_think(kind: str, think: float) -> str:
    """``kind`` with the expert's budget ``think`` (seconds a decision) unless it gives its own: the
    command line's --think for every expert seat ("bot:expert" -> "bot:expert:think=0.5"; a seat's own
    "bot:expert:think=2" wins). Other kinds are returned as they are; ValueError for a bad budget."""
    parse_expert_options(f"think={think!r}")
    text = kind.strip()
    level, _, options = text[4:].partition(":") if text.lower().startswith("bot:") else ("", "", "")
    if level.strip().lower() != EXPERT_LEVEL:
        return kind
    parse_expert_options(options)
    if any(item.partition("=")[0].strip() == "think" for item in options.replace(",", ":").split(":")):
        return kind
    return ":".join(filter(None, (EXPERT_KIND, f"think={think!r}", options.strip(": ,"))))


def make_bot(kind: str = "bot", seed: int = 0) -> Bot:
    """A bot for a seat kind, with its own generator seeded by ``seed``."""
    level, options = _split(kind)
    if level == EXPERT_LEVEL:
        return ExpertBot(seed, parse_expert_options(options))
    if level == RANDOM:
        return RandomBot(seed)
    return HeuristicBot(seed, level)
