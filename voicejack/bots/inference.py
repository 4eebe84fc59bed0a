"""What the opponents' moves of this deal say about the cards they hold (for the expert's sampled worlds).

Every card an opponent played this deal was in its hand, with the cards it
still holds, when it chose that card. So a sampled hand can be tried: put
back the cards played since, rebuild the board the opponent saw, and ask
how likely its actual move was for a player who scores moves as the
given heuristic does (the expert takes the hard level):
``exp((score of the move played - best score) / temperature)``.
A world whose hands make the opponents' moves unlikely (an opponent who
burned while the sampled hand held a playable card, R28; one who walked
with a 2 while holding the ace that captures) is drawn less often.

Everything used is public: the moves in the state's history (who played
which card, and how), the board they were played on (replayed from the
start of the match) and the played cards. Moves before a 10 that forced
a burn (R35, or a random one: KA11, ON9), a turn timed out (ON11) or a
hand burned whole are not used, since those leave cards unaccounted; a
history that does not replay to the board on the table (a hand-made or
loaded table) gives no evidence.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from voicejack.bots.heuristic import HeuristicBot
from voicejack.engine import GameState, InvalidStateError, Move, MoveKind, advance, legal_moves
from voicejack.engine.cards import FOUR_DEAL_SIZES, TWO_PLAYER_DEAL_SIZE
from voicejack.engine.rulesets import Deals
from voicejack.engine.state import all_home
from voicejack.engine.types import Colour, Rank

#: Moves after which earlier ones tell nothing reliable about the hands (cards left without a move).
_STOPS = (MoveKind.BURN_HAND, MoveKind.FORCE_BURN, MoveKind.TIME_OUT)


@dataclass(frozen=True, slots=True)
class PastTurn:
    """An opponent's decision of this deal: the table it faced (its own hand left empty), the move it
    chose, and the cards it played from then on (this move's card first)."""

    table: GameState
    move: Move
    played_since: tuple[Rank, ...]


def _deal_size(state: GameState) -> int:
    rules = state.rules
    if rules.players == 2 or rules.book.deals is Deals.FOUR_EACH_DEALER_MOVES:
        return TWO_PLAYER_DEAL_SIZE
    return FOUR_DEAL_SIZES[state.deal_index]


def _forced(history: list[tuple[Colour, Move]], index: int) -> bool:
    """Is the move at ``index`` the burn a complex 10 forced (R35)?"""
    return history[index][1].kind is MoveKind.BURN and index > 0 and history[index - 1][1].kind is MoveKind.FORCE_BURN


def _this_deal(state: GameState, history: list[tuple[Colour, Move]]) -> int:
    """How many moves at the end of ``history`` belong to this deal and come after the last stop."""
    sizes = {colour: len(hand) for colour, hand in state.hands.items()}
    size = _deal_size(state)
    full = size * len(sizes)
    count = 0
    for colour, move in reversed(history):
        if move.kind in _STOPS or sum(sizes.values()) >= full or sizes[colour] >= size:
            break
        sizes[colour] += 1
        count += 1
    return count


def _replayed_boards(state: GameState, history: list[tuple[Colour, Move]], keep: int) -> list[list[int]] | None:
    """The marbles before each of the last ``keep`` moves, replayed from the start; None if ``history``
    does not lead to the table's marbles."""
    replay = GameState(
        rules=state.rules, seats=state.seats, marbles=all_home(), hands={c: [] for c in state.rules.seats},
        turn=state.turn, rng=random.Random(0), dealer=state.dealer, deal_index=0, pile=[], history=[],
    )
    boards: list[list[int]] = []
    start = len(history) - keep
    try:
        for index, (colour, move) in enumerate(history):
            if index >= start:
                boards.append(list(replay.marbles))
            # Every hand holds a card, so the replay never deals; the mover holds the one it plays.
            replay.hands = {c: ["2"] for c in state.rules.seats}
            replay.hands[colour] = [move.card, "2"] if move.kind is not MoveKind.BURN_HAND else ["2"]
            replay.turn = colour
            replay.forced_burn = _forced(history, index)
            replay.winner = None
            if move.kind is MoveKind.TIME_OUT:
                continue
            advance(replay, move)
    except (InvalidStateError, ValueError, KeyError, IndexError, AssertionError):
        return None
    if replay.marbles != state.marbles:
        return None
    return boards


def past_turns(view: GameState, history: list[tuple[Colour, Move]], me: Colour) -> list[PastTurn]:
    """The decisions this deal of the players not on ``me``'s side: ``view`` is ``me``'s view of the table
    (only its sizes of the hidden hands and pile are read), ``history`` the moves played so far."""
    count = _this_deal(view, history)
    if not count:
        return []
    boards = _replayed_boards(view, history, count)
    if boards is None:
        return []
    team = view.rules.team_of(me)
    recent = history[len(history) - count:]
    turns: list[PastTurn] = []
    for index, ((colour, move), marbles) in enumerate(zip(recent, boards)):
        if colour in team or move.kind is MoveKind.TIME_OUT:
            continue
        later = recent[index:]
        played = tuple(m.card for c, m in later if c == colour)
        hands: dict[str, list[str]] = {}
        for seat in view.rules.seats:
            held = len(view.hands[seat]) + sum(1 for c, _ in later if c == seat)
            hands[seat] = [] if seat == colour else ["?"] * held
        # Every move of this deal discarded one card, so the discard then lacked the last count - index;
        # the pile is the same (and only its length is read), the hands the opponent did not see are blanks.
        table = GameState(
            rules=view.rules, seats=view.seats, marbles=marbles, hands=hands, turn=colour, rng=random.Random(0),
            dealer=view.dealer, deal_index=view.deal_index, pile=list(view.pile),
            discard=view.discard[:len(view.discard) - (count - index)],
            forced_burn=_forced(history, len(history) - count + index), history=[],
        )
        turns.append(PastTurn(table, move, played))
    return turns


def likelihood(world: GameState, turns: list[PastTurn], scorer: HeuristicBot, temperature: float) -> tuple[float, int]:
    """How likely the opponents' moves were with the hands of ``world`` (0 to 1; 0 when a move played would not
    have been legal with them), and how many moves were scored to tell."""
    weight = 1.0
    scored = 0
    for turn in turns:
        table = turn.table.copy(share_rng=True, keep_history=False)
        table.hands[table.turn] = list(world.hands[table.turn]) + list(turn.played_since)
        moves = legal_moves(table)
        if turn.move not in moves:
            return 0.0, scored
        if len(moves) == 1:
            continue
        scores = scorer.planned_scores_seen(table, moves)
        scored += len(moves)
        best = max(scores)
        weight *= math.exp((scores[moves.index(turn.move)] - best) / temperature)
    return weight, scored
