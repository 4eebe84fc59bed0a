"""The utterance table (lang_cases.py): every form, dialog path and misrecognition over real positions."""

from __future__ import annotations

import pytest
from lang_cases import CASES
from lang_positions import POSITIONS

from voicejack.engine import Move, legal_moves
from voicejack.language import Ask, Command, Confirm, Conversation, NotUnderstood, Resolution


def outcome(result: Resolution) -> str:
    """The case-table spelling of a resolution."""
    if isinstance(result, Move):
        return f"move: {result.phrase}"
    if isinstance(result, Confirm):
        return f"confirm: {result.phrase}"
    if isinstance(result, Ask):
        return f"ask {result.topic}: " + " | ".join(choice.label for choice in result.choices)
    if isinstance(result, Command):
        return f"command: {result}"
    assert isinstance(result, NotUnderstood)
    return f"no {result.code}"


def test_the_table_is_big_enough_and_covers_every_position() -> None:
    assert len(CASES) >= 200
    assert {case[0] for case in CASES} == set(POSITIONS)
    kinds = {expected.split(":")[0].split()[0] for _, _, _, expected in CASES}
    assert kinds == {"move", "confirm", "ask", "command", "no"}


@pytest.mark.parametrize(("position", "seat", "utterances", "expected"), CASES,
                         ids=[f"{c[0]}:{c[1] or ''}:{c[2]}" for c in CASES])
def test_utterance(position: str, seat: str | None, utterances: str, expected: str) -> None:
    state = POSITIONS[position]
    before = state.copy()
    conversation = Conversation(seat or state.turn)
    result: Resolution = NotUnderstood("nothing said")
    for text in utterances.split(" > "):
        result = conversation.hear(state, text)
    assert outcome(result) == expected
    # Resolving never changes the game, and whatever it offers to play is legal now.
    assert state.marbles == before.marbles and state.hands == before.hands and state.turn == before.turn
    legal = set(legal_moves(state))
    if isinstance(result, Move):
        assert result in legal
    if isinstance(result, Confirm) and isinstance(result.move, Move):
        assert result.move in legal
        assert result.prompt.lower().endswith("yes or no?")
    if isinstance(result, Ask):
        assert result.moves() <= legal and len(result.choices) >= 2
    if isinstance(result, NotUnderstood):
        assert result.reason
