"""A deliberately simple and slow reference for the legal moves, written from the rulebook.

This module is an independent reading of shared/spec/rules.md and
shared/spec/phrases.md; it does not look at voicejack/engine/rules.py. It
uses its own board representation (marbles named ("red", 1), places
("cell", n) or ("safe", colour, k), None for home) and finds everything by
scanning, so that it is easy to check against the rule text line by line.

``reference_moves(state)`` returns {canonical phrase: board after the move}
(the board is None for burns, which move no marble).
"""

from __future__ import annotations

from typing import Optional

COLOURS = ("red", "blue", "green", "yellow")
BASE = {"red": 0, "blue": 19, "green": 38, "yellow": 57}
CARD_WORD = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king",
}
NUMBER_WORD = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
               8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen"}
WALKS = {"2": 2, "3": 3, "5": 5, "6": 6, "8": 8, "9": 9, "10": 10, "Q": 12}  # R13

Marble = tuple[str, int]
Place = Optional[tuple]
Board = dict[Marble, Place]


# ---------------------------------------------------------------- the board


def board_of(state) -> Board:
    """Translate the engine's ints into this module's own representation."""
    board: Board = {}
    for index, position in enumerate(state.marbles):
        colour = COLOURS[index // 4]
        marble = (colour, index % 4 + 1)
        if position == -1:
            board[marble] = None
        elif position < 76:
            board[marble] = ("cell", position)
        else:
            board[marble] = ("safe", colour, position - 75)
    return board


def board_to_ints(board: Board) -> list[int]:
    result = []
    for colour in COLOURS:
        for number in range(1, 5):
            place = board[(colour, number)]
            if place is None:
                result.append(-1)
            elif place[0] == "cell":
                result.append(place[1])
            else:
                result.append(75 + place[2])
    return result


def words(marble: Marble) -> str:
    return f"{marble[0]} {NUMBER_WORD[marble[1]]}"


def who_is_on(board: Board, place: Place) -> Marble | None:
    for marble, where in board.items():
        if where == place:
            return marble
    return None


def on_own_base(board: Board, marble: Marble) -> bool:
    return board[marble] == ("cell", BASE[marble[0]])


def on_track(board: Board, marble: Marble) -> bool:
    place = board[marble]
    return place is not None and place[0] == "cell"


def in_safe_zone(board: Board, marble: Marble) -> bool:
    place = board[marble]
    return place is not None and place[0] == "safe"


def wall_protected(board: Board, marble: Marble, ignored: set[Marble]) -> bool:
    """R24: a track marble with another marble (not taking part in the move) on the cell behind it."""
    if not on_track(board, marble):
        return False
    behind = who_is_on(board, ("cell", (board[marble][1] - 1) % 76))
    return behind is not None and behind not in ignored


def step_forward(colour: str, place: tuple) -> Place:
    """One step along the marble's road (R4-R6); None past safe place 4."""
    if place[0] == "safe":
        return ("safe", colour, place[2] + 1) if place[2] < 4 else None
    cell = place[1]
    if (cell - BASE[colour]) % 76 == 75:
        return ("safe", colour, 1)
    return ("cell", (cell + 1) % 76)


# ---------------------------------------------------------------- one marble moving


def walk(board: Board, marble: Marble, steps: int, backward: bool = False, sweep: bool = False) -> Board | None:
    """The board after ``marble`` walks ``steps`` (R16, R21-R27, R31-R33), or None if not allowed."""
    place = board[marble]
    if place is None:
        return None
    if (backward or sweep) and place[0] != "cell":
        return None  # R16: the 4 moves track marbles only; R31: the sweep walks a track marble
    path = []
    for _ in range(steps):
        if backward:
            place = ("cell", (place[1] - 1) % 76)
        else:
            place = step_forward(marble[0], place)
            if place is None:
                return None  # R21
        path.append(place)
    sent_home = []
    for index, place in enumerate(path):
        other = who_is_on(board, place)
        if other is None:
            continue
        lands = index == len(path) - 1
        if place[0] == "safe":
            return None  # R25: nothing lands on or passes a safe marble
        if on_own_base(board, other):
            return None  # R23 (R33 for the sweep)
        if sweep:
            sent_home.append(other)  # R31-R33: walls and own colour do not stop it
            continue
        if wall_protected(board, other, {marble}):
            return None  # R24
        if not lands and other[0] == marble[0]:
            return None  # R22
        if lands:
            sent_home.append(other)  # R26
    after = dict(board)
    for other in sent_home:
        after[other] = None
    after[marble] = path[-1]
    return after


def bring_out(board: Board, colour: str) -> Board | None:
    """R20."""
    waiting = [m for m in sorted(board) if m[0] == colour and board[m] is None]
    if not waiting:
        return None
    marble = min(waiting, key=lambda m: m[1])
    base = ("cell", BASE[colour])
    other = who_is_on(board, base)
    after = dict(board)
    if other is not None:
        if other[0] == colour or wall_protected(board, other, set()):
            return None
        after[other] = None
    after[marble] = base
    return after


def swap(board: Board, mine: Marble, theirs: Marble) -> Board | None:
    """R18."""
    if mine[0] == theirs[0]:
        return None
    for marble in (mine, theirs):
        if not on_track(board, marble) or on_own_base(board, marble):
            return None
        if wall_protected(board, marble, {mine, theirs}):
            return None
    after = dict(board)
    after[mine], after[theirs] = board[theirs], board[mine]
    return after


# ---------------------------------------------------------------- whose marbles, and the list


def partner_of(state, colour: str) -> str | None:
    if not state.rules.teams:
        return None
    seats = state.rules.seats
    return seats[(seats.index(colour) + 2) % 4]


def all_in(board: Board, colour: str) -> bool:
    return all(in_safe_zone(board, (colour, n)) for n in range(1, 5))


def marbles_moved_by(state, board: Board, player: str) -> str:
    """R19/R36."""
    partner = partner_of(state, player)
    if partner is not None and all_in(board, player):
        return partner
    return player


def reference_moves(state) -> dict[str, Board | None]:
    if state.winner is not None:
        return {}  # R38
    player = state.turn
    hand = set(state.hands[player])
    if state.forced_burn:
        return {f"burn {CARD_WORD[c]}": None for c in hand}  # R35
    board = board_of(state)
    complex_mode = state.rules.mode == "complex"
    colour = marbles_moved_by(state, board, player)
    mine = [(colour, n) for n in range(1, 5)]
    team = {player, partner_of(state, player)}
    moves: dict[str, Board | None] = {}

    def offer(phrase: str, after: Board | None) -> None:
        if after is not None:
            assert phrase not in moves or moves[phrase] == after, phrase
            moves[phrase] = after

    for card in hand:
        name = CARD_WORD[card]
        if card in ("A", "K"):
            offer(f"play {name} out", bring_out(board, colour))
        if card == "A":
            for marble in mine:
                offer(f"play ace {words(marble)} one", walk(board, marble, 1))
                offer(f"play ace {words(marble)} eleven", walk(board, marble, 11))
        if card == "K" and complex_mode:
            for marble in mine:
                offer(f"play king {words(marble)}", walk(board, marble, 13, sweep=True))
        if card == "4":
            for marble in mine:
                offer(f"play four {words(marble)}", walk(board, marble, 4, backward=True))
        if card in WALKS and not (card == "5" and complex_mode):
            for marble in mine:
                offer(f"play {name} {words(marble)}", walk(board, marble, WALKS[card]))
        if card == "5" and complex_mode:  # R34
            for marble in board:
                if not on_track(board, marble) or on_own_base(board, marble):
                    continue
                after = walk(board, marble, 5)
                if after is not None and marble[0] not in team and after[marble][0] == "safe":
                    continue
                offer(f"play five {words(marble)}", after)
        if card == "10" and complex_mode:  # R35
            if any(state.hands[c] for c in state.rules.seats if c != player):
                moves["play ten burn"] = board
        if card == "7":  # R17
            for marble in mine:
                offer(f"play seven {words(marble)}", walk(board, marble, 7))
            for first in mine:
                for a in range(1, 7):
                    middle = walk(board, first, a)
                    if middle is None:
                        continue
                    second_colour = marbles_moved_by(state, middle, player)  # R36
                    for n in range(1, 5):
                        second = (second_colour, n)
                        if second == first:
                            continue
                        offer(
                            f"play seven {words(first)} {NUMBER_WORD[a]} {words(second)} {NUMBER_WORD[7 - a]}",
                            walk(middle, second, 7 - a),
                        )
        if card == "J":
            for marble in mine:
                for other in board:
                    offer(f"play jack {words(marble)} {words(other)}", swap(board, marble, other))
    if moves:
        return moves
    if any(on_track(board, m) for m in mine):
        return {f"burn {CARD_WORD[c]}": None for c in hand}  # R29
    return {"burn hand": None}  # R30


# ---------------------------------------------------------------- what follows a move


def winner_of(state, board: Board) -> tuple[str, ...] | None:
    """R37: team play needs both partners' eight marbles in; otherwise four of one colour."""
    seats = state.rules.seats
    if state.rules.teams:
        for side in (("red", "green"), ("blue", "yellow")):
            if all(all_in(board, colour) for colour in side):
                return side
        return None
    done = [colour for colour in seats if all_in(board, colour)]
    return (done[0],) if done else None


def card_of(phrase: str) -> str:
    words = phrase.split()
    word = words[1]
    return next(card for card, name in CARD_WORD.items() if name == word)


def next_to_act(state, phrase: str) -> str:
    """R12, R35, R10-R11: who acts after ``phrase`` when the match goes on."""
    seats = state.rules.seats
    player = state.turn
    hands = {colour: list(cards) for colour, cards in state.hands.items()}
    if phrase == "burn hand":
        hands[player] = []
    else:
        hands[player].remove(card_of(phrase))
    def after(colour: str) -> str:
        return seats[(seats.index(colour) + 1) % len(seats)]
    if phrase == "play ten burn":
        seat = after(player)
        while not hands[seat]:
            seat = after(seat)
        return seat
    seat = after(player)
    for _ in seats:
        if hands[seat]:
            return seat
        seat = after(seat)
    # nobody holds a card: a deal; the dealer moves on when the cycle is over or the pile is short
    if len(seats) == 4:
        next_deal = state.deal_index + 1
        size = (4, 4, 5)[next_deal] if next_deal < 3 else 4
        rotate = next_deal >= 3 or len(state.pile) < size * 4
    else:
        rotate = len(state.pile) < 8
    dealer = after(state.dealer) if rotate else state.dealer
    return after(dealer)
