"""Pacing (issue 11): how many words a player listens to, over many seeded bot matches and positions.

Goals: a bot's move in at most 8 words in brief wording and 15 in full (the
median over every move); the start of a 4-player match short; nothing said
about neighbours when nobody is near; brief really brief.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator

import pytest

from voicejack.bots import make_bot
from voicejack.engine import GameState, MoveKind, apply_move, legal_moves, make_rules, new_game
from voicejack.engine import events as ev
from voicejack.narration import Narrator, Verbosity

LISTENER = "red"
TABLES = [(2, False, "regular"), (4, True, "regular"), (4, False, "complex"), (4, True, "complex")]
SEEDS = range(700, 703)

FULL = Narrator(Verbosity.FULL)
BRIEF = Narrator(Verbosity.BRIEF)


def words(text: str) -> int:
    return len(text.split())


def bot_moves() -> Iterator[tuple[GameState, list[ev.Event], GameState]]:
    """(before, events, after) of every move of seeded bot matches but the listener's own."""
    for players, teams, mode in TABLES:
        for seed in SEEDS:
            state, _ = new_game(make_rules(players, teams, mode), seed=seed)
            bots = {colour: make_bot("bot", seed=seed + n) for n, colour in enumerate(state.rules.seats)}
            while state.winner is None:
                before = state.copy()
                events = apply_move(state, bots[state.turn].choose(state, legal_moves(state)))
                if before.turn != LISTENER:
                    yield before, events, state.copy()


MOVES = list(bot_moves())


def test_the_sample_is_large() -> None:
    assert len(MOVES) > 1200


@pytest.mark.parametrize(("narrator", "most"), [(BRIEF, 8), (FULL, 15)])
def test_a_bots_move_is_short_in_the_median(narrator: Narrator, most: int) -> None:
    counts = [words(" ".join(narrator.outcome(before, events, after, LISTENER))) for before, events, after in MOVES]
    assert statistics.median(counts) <= most


def test_a_plain_bots_move_is_at_most_8_words_in_brief() -> None:
    # One marble walks or comes out, nothing is sent home, nobody enters a safe zone, no deal follows:
    # nine in ten are at most 8 words, and none is over 10 (a four back onto somebody's base).
    counts = []
    for before, events, after in MOVES:
        if any(isinstance(e, (ev.MarbleCaptured, ev.EnteredSafeZone, ev.Dealt, ev.MarblesSwapped)) for e in events):
            continue
        played = next((e for e in events if isinstance(e, ev.CardPlayed)), None)
        if played is None or played.move.kind is MoveKind.SPLIT:
            continue
        lines = BRIEF.outcome(before, events, after, LISTENER)
        counts.append(words(" ".join(lines)))
        assert counts[-1] <= 10, lines
    assert len(counts) > 600
    assert sum(1 for n in counts if n <= 8) >= 0.9 * len(counts)


def test_brief_is_really_briefer_than_full() -> None:
    full = sum(words(" ".join(FULL.outcome(b, e, a, LISTENER))) for b, e, a in MOVES)
    brief = sum(words(" ".join(BRIEF.outcome(b, e, a, LISTENER))) for b, e, a in MOVES)
    assert brief <= 0.6 * full


def test_nobody_near_is_never_said() -> None:
    for before, _, _ in MOVES[::20]:
        for narrator in (FULL, BRIEF):
            for _, text in narrator.describe_options(before, before.turn):
                assert "nobody" not in text.lower() or "Nobody in its path" in text or "Nobody is in its path" in text, text


@pytest.mark.parametrize("teams", [True, False])
def test_the_start_of_a_4_player_match_is_short(teams: bool) -> None:
    # Everything the narrator says before the first prompt of the seat: the start, then the turn prompt.
    for seed in range(1, 11):
        state, _ = new_game(make_rules(4, teams, "regular"), seed=seed)
        for narrator, most in ((BRIEF, 10), (FULL, 40)):
            start = narrator.match_start(state, LISTENER)
            assert words(" ".join(start)) <= most, start


def test_brief_options_are_briefer_and_no_two_end_the_same() -> None:
    full_words = brief_words = 0
    for before, _, _ in MOVES[::10]:
        full = FULL.describe_options(before, before.turn)
        brief = BRIEF.describe_options(before, before.turn)
        assert [m for m, _ in full] == [m for m, _ in brief]
        full_words += sum(words(t) for _, t in full)
        brief_words += sum(words(t) for _, t in brief)
    assert brief_words <= 0.8 * full_words
