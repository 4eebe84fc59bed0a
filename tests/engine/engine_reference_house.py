"""The slow reference extended to the house rule sets, written from shared/spec/variants.md (KA1-KA13, ON1-ON12).

Like engine_reference.py, an independent reading: it uses that module's
board representation and helpers, never voicejack/engine. Every rule is
checked by scanning the board, step by step, as the rule text says.

``house_moves(state)`` returns {phrase: board after the move, or None for a burn};
``house_next_to_act(state, phrase)`` who acts next when the match goes on.
"""

from __future__ import annotations

try:
    from .engine_reference import (
        BASE, CARD_WORD, NUMBER_WORD, WALKS, Board, Marble, Place,
        all_in, board_of, card_of, in_safe_zone, on_own_base, on_track, partner_of, step_forward, who_is_on, words,
    )
except ImportError:
    from engine_reference import (  # type: ignore[no-redef]
        BASE, CARD_WORD, NUMBER_WORD, WALKS, Board, Marble, Place,
        all_in, board_of, card_of, in_safe_zone, on_own_base, on_track, partner_of, step_forward, who_is_on, words,
    )

KA2_ORDER = ("red", "yellow", "green", "blue")


def team_of(state, colour: str) -> set[str]:
    partner = partner_of(state, colour)
    return {colour} if partner is None else {colour, partner}


def wall_front(board: Board, marble: Marble, ignored: set[Marble]) -> bool:
    """ON5: a track marble with a marble of its own colour, not taking part in the move, on the cell behind."""
    if not on_track(board, marble):
        return False
    behind = who_is_on(board, ("cell", (board[marble][1] - 1) % 76))
    return behind is not None and behind not in ignored and behind[0] == marble[0]


def entrance_cell(colour: str) -> tuple:
    return ("cell", (BASE[colour] - 1) % 76)


def house_walk(state, board: Board, marble: Marble, steps: int, *, backward: bool = False, king: bool = False,
               five: bool = False, round_again: bool = False) -> Board | None:
    """The board after ``marble`` walks, or None: KA5-KA7, KA9, KA10 (karooty); ON4, ON5, ON7, ON8 (online).

    ``five``: the Karooty 5 (passes everything but own bases). ``round_again``:
    a Karooty 5 on an opponent, along the track only (KA10).
    """
    karooty = state.rules.rule_set == "karooty"
    place = board[marble]
    if place is None:
        return None
    if (backward or king or round_again) and place[0] != "cell":
        return None
    path = []
    entered_at = None
    for index in range(steps):
        if backward:
            place = ("cell", (place[1] - 1) % 76)
        elif round_again:
            place = ("cell", (place[1] + 1) % 76)
        else:
            previous = place
            place = step_forward(marble[0], place)
            if place is None:
                return None  # R21
            if previous[0] == "cell" and place[0] == "safe":
                entered_at = index
        path.append(place)
    if karooty and entered_at is not None and not king:
        guard = who_is_on(board, entrance_cell(marble[0]))
        if guard is not None and guard != marble and guard[0] not in team_of(state, marble[0]):
            return None  # KA6
    sent_home = []
    for index, place in enumerate(path):
        other = who_is_on(board, place)
        if other is None:
            continue
        lands = index == len(path) - 1
        if place[0] == "safe":
            return None  # R25, KA7, ON4
        if on_own_base(board, other):
            return None  # R23, KA5, KA9, ON4, ON7
        if king:
            sent_home.append(other)  # KA9, ON7
            continue
        if karooty and other[0] == marble[0] and not five:
            return None  # KA5: the own colour is neither passed nor landed on
        if not karooty and other[0] != marble[0] and wall_front(board, other, {marble}):
            return None  # ON5
        if lands:
            sent_home.append(other)  # R26
    after = dict(board)
    for other in sent_home:
        after[other] = None
    after[marble] = path[-1]
    return after


def house_bring_out(state, board: Board, colour: str) -> Board | None:
    waiting = sorted(m for m in board if m[0] == colour and board[m] is None)
    if not waiting:
        return None
    base = ("cell", BASE[colour])
    other = who_is_on(board, base)
    after = dict(board)
    if other is not None:
        if other[0] == colour:
            return None  # R20
        if state.rules.rule_set == "online" and wall_front(board, other, set()):
            return None  # ON5: a wall front counts as a base
        after[other] = None  # KA8: no walls
    after[waiting[0]] = base
    return after


def house_swap(state, board: Board, mine: Marble, theirs: Marble, player: str) -> Board | None:
    if mine[0] == theirs[0]:
        return None
    online = state.rules.rule_set == "online"
    if online and theirs[0] in team_of(state, player):
        return None  # ON10: never a partner
    for marble in (mine, theirs):
        if not on_track(board, marble) or on_own_base(board, marble):
            return None  # KA12, ON10
        if online and wall_front(board, marble, {mine, theirs}):
            return None  # ON10
    after = dict(board)
    after[mine], after[theirs] = board[theirs], board[mine]
    return after


def turn_order(state) -> tuple[str, ...]:
    return KA2_ORDER if state.rules.rule_set == "karooty" else tuple(state.rules.seats)


def after_in_order(state, colour: str) -> str:
    order = turn_order(state)
    return order[(order.index(colour) + 1) % len(order)]


def ten_target(state, hands: dict[str, list[str]], player: str) -> str | None:
    """KA11: the next player in KA2 order holding cards; ON9: the next opponent in seat order holding cards."""
    skip = team_of(state, player) if state.rules.rule_set == "online" else {player}
    seat = after_in_order(state, player)
    while seat != player:
        if hands[seat] and seat not in skip:
            return seat
        seat = after_in_order(state, seat)
    return None


def five_moves(state, board: Board, player: str, colour: str) -> dict[str, Board | None]:
    """KA10, ON8: the 5 on any marble."""
    karooty = state.rules.rule_set == "karooty"
    team = team_of(state, player)
    found: dict[str, Board | None] = {}
    for marble in board:
        if board[marble] is None:
            continue
        if marble[0] == colour:
            after = house_walk(state, board, marble, 5, five=karooty)  # the mover's own (R19), base and lane too
        else:
            if not on_track(board, marble) or on_own_base(board, marble):
                continue
            if karooty:
                after = house_walk(state, board, marble, 5, five=True, round_again=marble[0] not in team)
            else:
                if wall_front(board, marble, set()):
                    continue  # ON8: not another colour's wall front
                after = house_walk(state, board, marble, 5)
                if after is not None and marble[0] not in team and after[marble][0] == "safe":
                    continue  # ON8
        if after is not None:
            found[f"play five {words(marble)}"] = after
    return found


def house_moves(state) -> dict[str, Board | None]:
    if state.winner is not None:
        return {}
    player = state.turn
    hand = set(state.hands[player])
    board = board_of(state)
    partner = partner_of(state, player)
    colour = partner if partner is not None and all_in(board, player) else player  # R19
    mine = [(colour, n) for n in range(1, 5)]
    moves: dict[str, Board | None] = {}

    def offer(phrase: str, after: Board | None) -> None:
        if after is not None:
            moves[phrase] = after

    for card in hand:
        name = CARD_WORD[card]
        if card in ("A", "K"):
            offer(f"play {name} out", house_bring_out(state, board, colour))
        if card == "A":
            for marble in mine:
                offer(f"play ace {words(marble)} one", house_walk(state, board, marble, 1))
                offer(f"play ace {words(marble)} eleven", house_walk(state, board, marble, 11))
        if card == "K":
            for marble in mine:
                offer(f"play king {words(marble)}", house_walk(state, board, marble, 13, king=True))
        if card == "4":
            for marble in mine:
                offer(f"play four {words(marble)}", house_walk(state, board, marble, 4, backward=True))
        if card == "5":
            moves.update(five_moves(state, board, player, colour))
        elif card in WALKS:
            for marble in mine:
                offer(f"play {name} {words(marble)}", house_walk(state, board, marble, WALKS[card]))
        if card == "10" and ten_target(state, state.hands, player) is not None:
            moves["play ten burn"] = board
        if card == "7":
            for marble in mine:
                offer(f"play seven {words(marble)}", house_walk(state, board, marble, 7))
            for first in mine:
                for a in range(1, 7):
                    middle = house_walk(state, board, first, a)
                    if middle is None:
                        continue
                    second_colour = partner if partner is not None and all_in(middle, player) else player
                    for n in range(1, 5):
                        second = (second_colour, n)
                        if second != first:
                            offer(f"play seven {words(first)} {NUMBER_WORD[a]} {words(second)} {NUMBER_WORD[7 - a]}",
                                  house_walk(state, middle, second, 7 - a))
        if card == "J":
            for marble in mine:
                for other in board:
                    offer(f"play jack {words(marble)} {words(other)}", house_swap(state, board, marble, other, player))
    if moves:
        return moves
    if state.rules.rule_set == "karooty":
        return {f"burn {CARD_WORD[c]}": None for c in hand}  # KA4
    return {"burn hand": None}  # ON3


def house_next_to_act(state, phrase: str) -> str:
    """KA2, KA3, KA11; ON2, ON9: who acts next (a random burn only takes a card, whichever it is)."""
    player = state.turn
    hands = {colour: list(cards) for colour, cards in state.hands.items()}
    if phrase == "burn hand":
        hands[player] = []
    else:
        hands[player].remove(card_of(phrase))
    start = player
    if phrase == "play ten burn":
        target = ten_target(state, state.hands, player)
        hands[target].pop()
        if state.rules.rule_set == "karooty":
            start = target  # KA11: the target loses the turn
    seat = after_in_order(state, start)
    for _ in turn_order(state):
        if hands[seat]:
            return seat
        seat = after_in_order(state, seat)
    if state.rules.rule_set == "online":
        dealer = after_in_order(state, state.dealer)  # ON2: the dealer moves on every deal
    else:
        next_deal = state.deal_index + 1
        size = (4, 4, 5)[next_deal] if next_deal < 3 else 4
        rotate = next_deal >= 3 or len(state.pile) < size * 4
        dealer = after_in_order(state, state.dealer) if rotate else state.dealer
    return after_in_order(state, dealer)


def house_placed(board: Board, place: Place) -> bool:
    return who_is_on(board, place) is not None


__all__ = ["house_moves", "house_next_to_act", "in_safe_zone"]
