"""Seat kinds of a table file -> bots (make_bot), and the Bot protocol."""

from __future__ import annotations

import pytest

from voicejack.bots import (
    BOT_KINDS,
    DEFAULT_LEVEL,
    Bot,
    HeuristicBot,
    RandomBot,
    bot_level,
    make_bot,
)
from voicejack.engine import legal_moves, make_rules, new_game


@pytest.mark.parametrize(
    ("kind", "level"),
    [
        ("bot", DEFAULT_LEVEL), ("bot:random", "random"), ("bot:easy", "easy"), ("bot:medium", "medium"),
        ("bot:hard", "hard"), ("  Bot:Hard ", "hard"), ("hard", "hard"), ("random", "random"),
    ],
)
def test_kinds_name_levels(kind: str, level: str) -> None:
    assert bot_level(kind) == level


def test_bot_alone_is_the_medium_heuristic() -> None:
    bot = make_bot("bot", seed=1)
    assert isinstance(bot, HeuristicBot) and bot.level == "medium" and bot.name == "bot:medium"


def test_random_kind_is_the_random_bot() -> None:
    bot = make_bot("bot:random", seed=1)
    assert isinstance(bot, RandomBot) and bot.name == "bot:random"


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_every_kind_makes_a_bot_that_answers_with_a_legal_move(kind: str) -> None:
    bot = make_bot(kind, seed=2)
    assert isinstance(bot, Bot)
    state, _ = new_game(make_rules(players=4, teams=True, mode="complex"), seed=9)
    moves = legal_moves(state)
    assert bot.choose(state, moves) in moves


@pytest.mark.parametrize("kind", ["human", "bot:", "", "bots", "bot:genius"])
def test_unknown_kinds_are_refused_with_the_accepted_ones(kind: str) -> None:
    with pytest.raises(ValueError) as error:
        make_bot(kind, seed=0)
    assert "bot:hard" in str(error.value) and "bot:random" in str(error.value)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="easy, medium, hard"):
        HeuristicBot(0, "expert")


def test_no_moves_is_an_error_not_a_crash_elsewhere() -> None:
    state, _ = new_game(make_rules(players=2), seed=1)
    for kind in BOT_KINDS:
        with pytest.raises(ValueError):
            make_bot(kind, 0).choose(state, [])
