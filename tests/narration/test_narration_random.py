"""Random positions from real play in every table kind and both versions.

Every option description must name where each moved marble lands and
every marble the move would send home; every outcome must do the same
for what happened. Everything must be speakable: no visual words, no
symbols a speech synthesiser would spell out, brief never longer than full.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence

import pytest

from voicejack.engine import GameState, Move, MoveKind, legal_moves, make_rules, marble_colour, marble_name, new_game, play
from voicejack.engine import events as ev
from voicejack.engine.board import SAFE_OFFSET, colour_marbles
from voicejack.narration import Narrator, Verbosity

KINDS = [(4, True), (4, False), (2, False)]
MODES = ["regular", "complex"]
SEEDS = (11, 12, 13, 14)
MAX_TURNS = 600
SAMPLE_EVERY = 2  # describe the options of every other position, to keep the test fast

SPEAKABLE = re.compile(r"^[A-Za-z0-9 ,.;:'!]+$")
VISUAL_WORDS = re.compile(r"\b(see|seen|look|looks|shown|show|screen|display|displayed|visible|watch|colou?red)\b", re.IGNORECASE)

FULL = Narrator(Verbosity.FULL)
BRIEF = Narrator(Verbosity.BRIEF)


def positions(players: int, teams: bool, mode: str, seed: int) -> Iterator[tuple[GameState, Move]]:
    """Positions of one random match, with the move played from each."""
    state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_TURNS):
        if state.winner is not None:
            return
        move = rng.choice(legal_moves(state))
        yield state, move
        state, _ = play(state, move)


def landings(events: Sequence[ev.Event]) -> list[int]:
    """Where each marble the move put somewhere new ended up, in the order it happened."""
    found: list[int] = []
    for event in events:
        if isinstance(event, ev.MarbleCameOut):
            found.append(event.cell)
        elif isinstance(event, ev.MarbleWalked):
            found.append(event.end)
        elif isinstance(event, ev.MarblesSwapped):
            found.extend((event.other_from, event.marble_from))
    return found


def names_position(text: str, position: int) -> bool:
    if position > SAFE_OFFSET:
        return re.search(rf"\bplace {position - SAFE_OFFSET}\b", text) is not None
    return re.search(rf"\bcell {position}\b", text) is not None


def names_marble(text: str, marble: int) -> bool:
    return re.search(rf"\b{marble_name(marble)}\b", text, re.IGNORECASE) is not None


def check_speakable(text: str) -> None:
    assert text, "empty sentence"
    assert SPEAKABLE.match(text), f"symbols a synthesiser would mangle: {text!r}"
    assert not VISUAL_WORDS.search(text), f"visual language: {text!r}"
    assert "  " not in text and (text[0].isupper() or text[0].isdigit()) and text[-1] in ".!", text


def own_side(state: GameState, listener: str) -> set[str]:
    return {listener, *(p for p in [state.rules.partner(listener)] if p)}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("players", "teams"), KINDS)
def test_every_option_names_its_landing_and_every_marble_it_sends_home(players: int, teams: bool, mode: str) -> None:
    described = 0
    for index, (state, _) in enumerate(p for seed in SEEDS for p in positions(players, teams, mode, seed)):
        if index % SAMPLE_EVERY:
            continue
        listener = state.turn
        # Every legal move, also the second order of a split that describe_options reads once.
        full = {m.phrase: FULL.describe_option(state, m, listener) for m in legal_moves(state)}
        brief = {m.phrase: BRIEF.describe_option(state, m, listener) for m in legal_moves(state)}
        for move in legal_moves(state):
            _, events = play(state, move)
            for text in (full[move.phrase], brief[move.phrase]):
                check_speakable(text)
                for position in landings(events):
                    assert names_position(text, position), f"{move.phrase}: landing {position} not named in {text!r}"
                captured = [e.marble for e in events if isinstance(e, ev.MarbleCaptured)]
                for marble in captured:
                    assert names_marble(text, marble), f"{move.phrase}: {marble_name(marble)} sent home, not said in {text!r}"
                mine = any(marble_colour(m) in own_side(state, listener) for m in captured)
                assert ("Careful" in text) == mine, f"{move.phrase}: own or partner's capture must be flagged: {text!r}"
                if move.kind is MoveKind.FORCE_BURN:
                    target = next(e.target for e in events if isinstance(e, ev.BurnForced))
                    assert target.capitalize() in text
            assert len(brief[move.phrase].split()) <= len(full[move.phrase].split()), move.phrase
            described += 1
    assert described > 100


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("players", "teams"), KINDS)
def test_options_that_end_the_same_are_read_once(players: int, teams: bool, mode: str) -> None:
    # Issue 11: one option per ending (same card, same marbles on the same cells, same marbles sent home),
    # the first in the engine's order standing for the others, and no ending left out.
    grouped = 0
    for index, (state, _) in enumerate(p for seed in SEEDS for p in positions(players, teams, mode, seed)):
        if index % SAMPLE_EVERY:
            continue
        moves = legal_moves(state)
        offered = [move for move, _ in BRIEF.describe_options(state, state.turn)]
        assert offered == [move for move in moves if move in offered]

        def ending(move: Move) -> tuple[object, ...]:
            after, events = play(state, move)
            captured = frozenset(e.marble for e in events if isinstance(e, ev.MarbleCaptured))
            return move.card, tuple(after.marbles), captured, after.turn, after.forced_burn

        endings = [ending(move) for move in offered]
        assert len(set(endings)) == len(endings)
        for move in moves:
            assert ending(move) in endings, move.phrase
            if move not in offered:
                first = offered[endings.index(ending(move))]
                assert moves.index(first) < moves.index(move)
                grouped += 1
    assert grouped > 0


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("players", "teams"), KINDS)
def test_every_outcome_tells_where_marbles_ended_and_who_went_home(players: int, teams: bool, mode: str) -> None:
    kinds_seen: set[type] = set()
    for seed in SEEDS:
        for state, move in positions(players, teams, mode, seed):
            after, events = play(state, move)
            kinds_seen.update(type(e) for e in events)
            others = [c for c in state.rules.seats if c != state.turn]
            for narrator in (FULL, BRIEF):
                for listener in (None, state.turn, others[0]):
                    lines = narrator.outcome(state, events, after, listener)
                    text = " ".join(lines)
                    for line in lines:
                        check_speakable(line)
                    for position in landings(events):
                        assert names_position(text, position), f"{move.phrase}: landing {position} not told: {lines}"
                    for e in events:
                        if isinstance(e, ev.MarbleCaptured):
                            assert names_marble(text, e.marble), f"{move.phrase}: capture not told: {lines}"
                    if any(isinstance(e, ev.Won) for e in events):
                        assert lines[-1].endswith(("win the match!", "wins the match.", "win!", "wins.", "win the match.", "win."))
                    if any(isinstance(e, (ev.CardBurned, ev.HandBurned)) for e in events):
                        assert any("burned" in line for line in lines)
    # The random matches reach the ordinary events of a match.
    assert {ev.CardPlayed, ev.MarbleCameOut, ev.MarbleWalked, ev.Dealt} <= kinds_seen


@pytest.mark.parametrize(("players", "teams", "mode"), [(4, True, "complex"), (2, False, "regular")])
def test_readouts_are_speakable_in_every_position(players: int, teams: bool, mode: str) -> None:
    for index, (state, _) in enumerate(positions(players, teams, mode, SEEDS[1])):
        if index % 10:
            continue
        for narrator in (FULL, BRIEF):
            for listener in (None, *state.rules.seats):
                lines = [
                    *narrator.board_lines(state, listener), *narrator.match_start(state, listener),
                    *narrator.resume_summary(state, listener),
                    narrator.turn_prompt(state, listener), narrator.hand(state, listener),
                    narrator.score(state, listener), narrator.last_card(state, listener),
                ]
                lines.extend(narrator.where_is(state, m, listener) for c in state.rules.seats for m in colour_marbles(c))
                for line in lines:
                    check_speakable(line)
