"""The command language and the grammars under the house rule sets (variants.md): every legal phrase is
listened for and understood, the new phrasings resolve, and "what are the rules" is a command."""

from __future__ import annotations

import random

import pytest
from jsgf_expand import sentences

from voicejack.engine import GameState, legal_moves, make_rules, new_game, play
from voicejack.language import Command, phrase_set, resolve
from voicejack.language.resolution import CommandName
from voicejack.tablefile import table_from_dict

TABLES = [("karooty", 4, True), ("online", 2, False), ("online", 4, False)]


def house_positions(count: int) -> list[GameState]:
    rng = random.Random(31)
    found = []
    for index in range(count):
        name, players, teams = TABLES[index % len(TABLES)]
        state, _ = new_game(make_rules(players, teams, rule_set=name), seed=rng.randrange(1 << 20))
        for _ in range(rng.randrange(20, 120)):
            if state.winner is not None:
                break
            state, _ = play(state, rng.choice(legal_moves(state)))
        if state.winner is None:
            found.append(state)
    return found


POSITIONS = house_positions(12)


def karooty_push() -> GameState:
    """KA10: red's 5 may push blue 1, which goes round again; the king ploughs (KA9); the 10 skips (KA11)."""
    return table_from_dict({
        "format": "voicejack-table/1", "mode": "regular", "rules": "karooty", "teams": True,
        "players": [{"colour": "red", "kind": "human", "hand": ["5", "K", "10"]}, {"colour": "blue", "hand": ["2"]},
                    {"colour": "green", "hand": ["3"]}, {"colour": "yellow", "hand": ["Q"]}],
        "marbles": {"red": [10, "home", "home", "home"], "blue": [16, "home", "home", "home"],
                    "green": ["home"] * 4, "yellow": ["home"] * 4},
        "turn": "red",
    })


def test_every_legal_phrase_is_listened_for_and_understood() -> None:
    for state in [*POSITIONS, karooty_push()]:
        grammar = phrase_set(state, state.turn)
        assert sentences(grammar.jsgf("voicejack")) == set(grammar.phrases)
        for move in legal_moves(state):
            assert move.phrase in grammar.phrases
            assert resolve(state, state.turn, move.phrase) == move, (state.rules.rule_set, move.phrase)


@pytest.mark.parametrize(("said", "phrase"), [
    ("five on blue one", "play five blue one"),      # KA10: the 5 on an opponent
    ("play king red one", "play king red one"),      # KA9: the plough in the one version
    ("ten burn", "play ten burn"),                   # KA11
])
def test_the_new_moves_in_natural_words(said: str, phrase: str) -> None:
    state = karooty_push()
    assert resolve(state, "red", said) == next(m for m in legal_moves(state) if m.phrase == phrase)


@pytest.mark.parametrize("said", ["what are the rules", "tell me the rules", "the rules"])
def test_what_are_the_rules_is_a_command(said: str) -> None:
    state = karooty_push()
    assert resolve(state, "red", said) == Command(CommandName.RULES)
    assert said in phrase_set(state, "red").phrases
