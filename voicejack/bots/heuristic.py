"""The heuristic bot: previews every legal move and scores the position it leaves.

A position is scored for the bot's side (its own marbles, and its
partner's in team play) against the opponents', in cells of progress:

- the race: a marble out of home is worth ``out``; a track marble adds its
  race value (race.py: its progress, corrected near the end of the lap by
  how hard the exact count makes the last steps, and near its base by the
  short road of the 4); a marble in the safe zone adds its place and
  ``safe``. So a capture costs the victim everything it had walked.
- the safe-zone lane: an empty place deeper than a settled marble is a
  ``hole`` while other marbles still have to come in, so the first marble
  in goes as deep as it can and nothing shuts the lane;
- danger: each of the side's track marbles that an opponent marble could
  land on before the bot plays again (1..13 cells behind, 4 ahead for the
  backward 4, an opponent's base for a marble coming out, the complex
  king sweep and 5) costs its worth times the chance that some opponent
  holds a card that reaches it, counted from the cards the bot has not
  seen; a marble on its own base, at the front of a wall or in the safe
  zone is out of reach;
- opportunity: opponents' marbles the kept cards could send home next
  turn count a little;
- the cards kept: an ace or king while marbles wait at home, a 4 while a
  marble stands on or near its base (the short road), a 7 for its splits;
  so a burn throws away the least useful card;
- sending the bot's own or partner's marble home costs ``own_capture``
  on top of the lost progress, so it happens only when everything else
  is worse; a complex 10 that makes an opponent burn is worth
  ``force_burn`` and spares the bot that opponent's threats.

Under the house rule sets (variants.md) the same scoring reads the rule
set: what blocks a walk (KA5: only the own colour; ON4-ON5: bases and
walls of one colour), which marbles walls protect, the king's plough and
the 5 on any marble as threats, the 10's random burn, and under Karooty
(KA6) a marble of the other team standing on a goal entrance: ``entrance``
for each one that bars the side's lane, and as much for each that bars an
opponent's.

The "hard" level also plans one turn ahead with its own hand: the best
few moves are blended with the best follow-up their kept cards allow.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from collections import Counter
from dataclasses import dataclass

from voicejack.bots.race import race_value
from voicejack.bots.view import seat_view, unseen_cards
from voicejack.engine import (
    GameState,
    Move,
    MoveKind,
    apply_move,
    legal_moves,
    mover_colour,
)
from voicejack.engine.board import BASE_BY_INDEX, COLOUR_INDEX, HOME, MARBLE_SLICES, MARBLES_BY_INDEX, SAFE_OFFSET
from voicejack.engine.cards import ACE_STEPS, SEVEN, SWEEP_STEPS, WALK_VALUES
from voicejack.engine.events import Event, MarbleCaptured, RandomBurn
from voicejack.engine.rulesets import Five, GoalEntrance, King, Passing, RuleSet, Ten, Walls

WIN_SCORE = 1_000_000.0
Blocked = Callable[[list[int], int, int], bool]
LAST_TRACK_PROGRESS = 75
# An opponent out of cards plays only after a new deal, and the bot may move away first.
EMPTY_HAND_FACTOR = 0.25

# The cards that make a marble land exactly d cells ahead (7 splits are added separately).
_EXACT_FORWARD: dict[int, tuple[str, ...]] = {
    1: ("A",), 2: ("2",), 3: ("3",), 5: ("5",), 6: ("6",), 7: ("7",),
    8: ("8",), 9: ("9",), 10: ("10",), 11: ("A",), 12: ("Q",),
}


@dataclass(frozen=True, slots=True)
class Weights:
    """How much each consideration counts, in cells of progress."""

    out: float = 15.0           # a marble on the track rather than at home
    safe: float = 20.0          # a marble settled in the safe zone, beyond its progress
    hole: float = 12.0          # an empty safe place deeper than a settled marble, while others are still out
    opponent: float = 1.0       # an opponent's progress against the side's own
    danger: float = 1.0         # expected loss from marbles an opponent may land on
    own_capture: float = 25.0   # extra cost of sending one's own or partner's marble home
    cards: float = 1.0          # the value of the cards kept in hand
    opportunity: float = 0.3    # opponents' marbles the kept cards could send home next turn
    force_burn: float = 6.0     # an opponent losing a turn to a complex 10 (or a Karooty one, KA11)
    entrance: float = 4.0       # KA6: a marble of the other team on a goal entrance
    random_rate: float = 0.0    # chance of playing a random legal move instead (easy level)
    race: bool = True           # value track marbles by the turns they still need (race.py), not plain progress
    plan: float = 0.0           # weight of the best follow-up with the cards kept (hard level)
    plan_candidates: int = 0    # how many of the best moves get their follow-up checked


LEVELS: dict[str, Weights] = {
    # Greedy on the board as it is: no danger, no card keeping, and one move in four at random.
    "easy": Weights(danger=0.0, cards=0.0, opportunity=0.0, hole=2.0, random_rate=0.25),
    # The full one-move scoring.
    "medium": Weights(),
    # The scoring plus a plan for the next turn with the cards kept.
    "hard": Weights(plan=0.5, plan_candidates=8),
}
DEFAULT_LEVEL = "medium"


class _Context:
    """What the bot knows at one decision, precomputed once for all the moves it previews."""

    __slots__ = (
        "attackers",
        "blocked",
        "book",
        "complex",
        "five_any",
        "sweeps",
        "me",
        "memo",
        "opponents",
        "out_value",
        "race",
        "team",
        "unseen",
        "unseen_total",
    )

    def __init__(self, view: GameState, me: str, weights: Weights) -> None:
        rules = view.rules
        self.me = me
        self.out_value = weights.out
        # Race values by free places (index 1..4), or None to count plain progress.
        self.race: tuple[tuple[float, ...], ...] | None = (
            ((),) + tuple(race_value(free, rules.book.king is King.OUT_OR_SWEEP) for free in range(1, 5))
            if weights.race else None
        )
        team = rules.team_of(me)
        self.team: tuple[int, ...] = tuple(COLOUR_INDEX[c] for c in team)
        self.opponents: tuple[int, ...] = tuple(COLOUR_INDEX[c] for c in rules.seats if c not in team)
        # Which opponent players may move each opponent colour (a finished teammate moves the partner's).
        self.attackers: dict[int, tuple[str, ...]] = {
            index: tuple(c for c in rules.seats if c not in team and COLOUR_INDEX[mover_colour(view, c)] == index)
            for index in self.opponents
        }
        counts = Counter(unseen_cards(view, me))
        self.unseen = counts
        self.unseen_total = sum(counts.values())
        self.complex = rules.complex  # the version (R3); what the rule set allows is read from ``book``
        book = rules.book
        self.book = book
        self.sweeps = book.king is King.OUT_OR_SWEEP        # R31, KA9, ON7
        self.five_any = book.five is not Five.MOVER_ONLY    # R34, KA10, ON8
        self.blocked = _blocker(book)
        self.memo: dict[tuple[frozenset[str], int], float] = {}

    def holds_any(self, ranks: frozenset[str], hand_size: int) -> float:
        """The chance that a hand of ``hand_size`` unseen cards holds at least one of ``ranks``."""
        key = (ranks, hand_size)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        total = self.unseen_total
        good = sum(self.unseen[r] for r in ranks)
        none = 1.0
        for i in range(min(hand_size, total)):
            if total - good - i <= 0:
                none = 0.0
                break
            none *= (total - good - i) / (total - i)
        chance = 1.0 - none
        self.memo[key] = chance
        return chance


def _copy(state: GameState) -> GameState:
    """A cheap copy for previews: the view's generator is shared (it only shuffles unseen cards)."""
    return state.copy(share_rng=True, keep_history=False)


def _free_places(marbles: list[int], index: int) -> int:
    """How many safe places a marble of this colour could still enter (those before the shallowest one taken)."""
    shallowest = 5
    for marble in MARBLES_BY_INDEX[index]:
        position = marbles[marble]
        if position > SAFE_OFFSET and position - SAFE_OFFSET < shallowest:
            shallowest = position - SAFE_OFFSET
    return shallowest - 1


def _track_value(ctx: _Context, marbles: list[int], marble: int) -> float:
    """What a track marble is worth to its side: coming out plus its race value (see race.py)."""
    index = marble >> 2
    walked = (marbles[marble] - BASE_BY_INDEX[index]) % 76
    if ctx.race is None:
        return ctx.out_value + walked
    return ctx.out_value + ctx.race[max(1, _free_places(marbles, index))][walked]


def _colour_value(ctx: _Context, marbles: list[int], index: int, w: Weights) -> float:
    """What one colour's four marbles are worth: progress, the safe-zone bonus, the lane's holes."""
    base = BASE_BY_INDEX[index]
    race = None if ctx.race is None else ctx.race[max(1, _free_places(marbles, index))]
    value = 0.0
    outside = 0
    places: list[int] = []
    for marble in MARBLES_BY_INDEX[index]:
        position = marbles[marble]
        if position == HOME:
            outside += 1
        elif position > SAFE_OFFSET:
            value += w.out + w.safe + position
            places.append(position - SAFE_OFFSET)
        else:
            walked = (position - base) % 76
            value += w.out + (walked if race is None else race[walked])
            outside += 1
    if outside and places:
        holes = sum(1 for place in places for deeper in range(place + 1, 5) if deeper not in places)
        value -= w.hole * holes
    return value


def _blocker(book: RuleSet) -> Blocked:
    """What stops a walk under ``book``: R22-R24, KA5 or ON4-ON5."""
    if book.passing is Passing.OWN_COLOUR_BLOCKS:
        return _blocked_karooty
    if book.walls is Walls.SAME_COLOUR:
        return _blocked_online
    return _blocked


def _blocked_karooty(board: list[int], cell: int, mover: int) -> bool:
    """KA5: only the mover's own colour and a marble on its own base stop it."""
    occupant = board[cell]
    return occupant >= 0 and (occupant >> 2 == mover >> 2 or cell == BASE_BY_INDEX[occupant >> 2])


def _blocked_online(board: list[int], cell: int, mover: int) -> bool:
    """ON4-ON5: a marble on its own base, or the front of a wall of one colour that is not the mover's."""
    occupant = board[cell]
    if occupant < 0:
        return False
    if cell == BASE_BY_INDEX[occupant >> 2]:
        return True
    behind = board[cell - 1]
    return behind >= 0 and behind != mover and behind >> 2 == occupant >> 2 != mover >> 2


def _protected(book: RuleSet, marble: int, behind: int, attacker: int) -> bool:
    """Is ``marble`` wall-protected from ``attacker`` (-1: from a marble coming out or walking back)?"""
    if behind < 0 or behind == attacker or book.walls is Walls.NONE:
        return False
    return book.walls is Walls.ANY_COLOUR or behind >> 2 == marble >> 2


def _blocked(board: list[int], cell: int, mover: int) -> bool:
    """Whether ``mover`` may not step over the marble on ``cell`` (R22-R24)."""
    occupant = board[cell]
    if occupant < 0:
        return False
    if occupant >> 2 == mover >> 2 or cell == BASE_BY_INDEX[occupant >> 2]:
        return True
    behind = board[cell - 1]
    return behind >= 0 and behind != mover


def _danger(after: GameState, ctx: _Context, skip: str | None) -> float:
    """Expected loss from the side's track marbles that opponents may land on before the bot plays again.

    ``skip`` is a player who loses their next turn (forced to burn by a complex 10).
    """
    marbles = after.marbles
    board = after.board
    hands = after.hands
    book = ctx.book
    blocked = ctx.blocked
    opponents = ctx.opponents
    attackers = ctx.attackers
    total = 0.0
    for marble, cell, behind in _exposed_marbles(marbles, board, ctx.team):
        threats: dict[int, set[str]] = {}  # opponent colour index -> the ranks that strike
        for distance in range(1, 14):
            start = cell - distance
            if start < 0:
                start += 76
            attacker = board[start]
            if attacker < 0:
                continue
            attacker_index = attacker >> 2
            walked = (start - BASE_BY_INDEX[attacker_index]) % 76
            if walked + distance > LAST_TRACK_PROGRESS:
                continue  # that many steps would take it into its own safe zone instead
            exposed = not _protected(book, marble, behind, attacker)
            if (
                ctx.five_any and distance == 5 and exposed and walked != 0
                and _path_clear(board, attacker, start, 5, blocked)
            ):
                for opponent in opponents:  # any opponent's 5 may push any marble onto this one (R34)
                    threats.setdefault(opponent, set()).add("5")
            if attacker_index not in attackers:
                continue
            if ctx.sweeps and walked + 13 <= LAST_TRACK_PROGRESS + 4 and _sweep_clear(board, start):
                threats.setdefault(attacker_index, set()).add("K")
            if not exposed or distance == 13 or not _path_clear(board, attacker, start, distance, blocked):
                continue
            ranks = _EXACT_FORWARD.get(distance, ())
            if distance < 7 and _has_other_marble(marbles, attacker):
                ranks = ranks + ("7",)
            if ranks:
                threats.setdefault(attacker_index, set()).update(ranks)
        if not _protected(book, marble, behind, -1):
            ahead = board[cell + 4 - 76 if cell + 4 >= 76 else cell + 4]
            if ahead >= 0 and ahead >> 2 in attackers and _back_path_clear(board, ahead, cell, blocked):
                threats.setdefault(ahead >> 2, set()).add("4")
            for opponent in opponents:
                if cell == BASE_BY_INDEX[opponent] and HOME in marbles[MARBLE_SLICES[opponent]]:
                    threats.setdefault(opponent, set()).update(("A", "K"))
        if not threats:
            continue
        safe_chance = 1.0
        players: dict[str, set[str]] = {}
        for colour_index, striking in threats.items():
            for player in attackers[colour_index]:
                players.setdefault(player, set()).update(striking)
        for player, striking in players.items():
            if player == skip:
                continue
            size = len(hands[player])
            if size:
                safe_chance *= 1.0 - ctx.holds_any(frozenset(striking), size)
            else:
                safe_chance *= 1.0 - EMPTY_HAND_FACTOR * ctx.holds_any(frozenset(striking), 4)
        total += (1.0 - safe_chance) * _track_value(ctx, marbles, marble)
    return total


def _exposed_marbles(marbles: list[int], board: list[int], colours: Iterable[int]) -> Iterator[tuple[int, int, int]]:
    """(marble, cell, marble behind it or -1) for every track marble of ``colours`` not on its own base."""
    for index in colours:
        base = BASE_BY_INDEX[index]
        for marble in MARBLES_BY_INDEX[index]:
            cell = marbles[marble]
            if 0 <= cell <= SAFE_OFFSET and cell != base:
                yield marble, cell, board[cell - 1]


def _path_clear(board: list[int], mover: int, start: int, distance: int, blocked: Blocked = _blocked) -> bool:
    for step in range(1, distance):
        cell = start + step
        if cell >= 76:
            cell -= 76
        if blocked(board, cell, mover):
            return False
    return True


def _back_path_clear(board: list[int], mover: int, target: int, blocked: Blocked = _blocked) -> bool:
    for step in range(1, 4):
        if blocked(board, (target + step) % 76, mover):
            return False
    return True


def _sweep_clear(board: list[int], start: int) -> bool:
    """No marble on its own base among the 13 cells ahead (R33); walls do not stop a sweep."""
    for step in range(1, 14):
        cell = (start + step) % 76
        occupant = board[cell]
        if occupant >= 0 and cell == BASE_BY_INDEX[occupant >> 2]:
            return False
    return True


def _has_other_marble(marbles: list[int], marble: int) -> bool:
    start = marble & ~3
    return any(marbles[m] != HOME for m in range(start, start + 4) if m != marble)


def _reach(hand: list[str], sweeps: bool) -> set[int]:
    """The forward distances the cards in ``hand`` can walk one marble exactly."""
    reach: set[int] = set()
    for card in hand:
        if card == "A":
            reach.update(ACE_STEPS)
        elif card == "7":
            reach.update(range(1, SEVEN + 1))
        elif card in WALK_VALUES:
            reach.add(WALK_VALUES[card])
        elif card == "K" and sweeps:
            reach.add(SWEEP_STEPS)
    return reach


def _opportunity(after: GameState, ctx: _Context, kept: list[str]) -> float:
    """Progress of the opponents' marbles that the cards kept could send home on the bot's next turn."""
    if not kept:
        return 0.0
    mover = COLOUR_INDEX[mover_colour(after, ctx.me)]
    mover_base = BASE_BY_INDEX[mover]
    marbles = after.marbles
    board = after.board
    reach = _reach(kept, ctx.sweeps)
    book = ctx.book
    blocked = ctx.blocked
    backward = "4" in kept
    coming_out = ("A" in kept or "K" in kept) and HOME in marbles[MARBLE_SLICES[mover]]
    total = 0.0
    for marble, cell, behind in _exposed_marbles(marbles, board, ctx.opponents):
        hit = coming_out and cell == mover_base and not _protected(book, marble, behind, -1)
        for distance in reach:
            if hit:
                break
            start = cell - distance
            if start < 0:
                start += 76
            hunter = board[start]
            if hunter < 0 or hunter >> 2 != mover or _protected(book, marble, behind, hunter):
                continue
            if (start - mover_base) % 76 + distance > LAST_TRACK_PROGRESS:
                continue
            hit = _path_clear(board, hunter, start, distance, blocked)
        if not hit and backward and not _protected(book, marble, behind, -1):
            hunter = board[(cell + 4) % 76]
            hit = hunter >= 0 and hunter >> 2 == mover and _back_path_clear(board, hunter, cell, blocked)
        if hit:
            total += _track_value(ctx, marbles, marble)
    return total


def _cards_value(after: GameState, me: str, hand: list[str]) -> float:
    """What the cards kept are worth for the moves to come."""
    if not hand:
        return 0.0
    index = COLOUR_INDEX[mover_colour(after, me)]
    base = BASE_BY_INDEX[index]
    marbles = after.marbles[MARBLE_SLICES[index]]
    at_home = marbles.count(HOME)
    near_base = any(0 <= p <= SAFE_OFFSET and (p - base) % 76 < 4 for p in marbles)
    value = 0.0
    out_cards = sorted((card for card in hand if card in ("A", "K")), key=lambda c: c != "A")
    for card in out_cards[:at_home]:
        value += 6.0 if card == "A" else 5.0
    fours = hand.count("4")
    if fours:
        value += 10.0 if near_base else (4.0 if at_home and out_cards else 1.0)
    value += 2.0 * min(hand.count("7"), 2)
    value += 1.0 * min(hand.count("J"), 1)
    book = after.rules.book
    if book.king is King.OUT_OR_SWEEP and book.ten is not Ten.WALK_ONLY:
        value += 2.0 * min(hand.count("K"), 1) + 1.0 * min(hand.count("10"), 1)
    return value


def _entrances(after: GameState, ctx: _Context) -> float:
    """KA6: goal entrances the side's marbles bar to opponents, less those opponents bar to the side."""
    board = after.board
    balance = 0.0
    for sides, others, sign in ((ctx.team, ctx.opponents, -1.0), (ctx.opponents, ctx.team, 1.0)):
        for index in sides:
            guard = board[BASE_BY_INDEX[index] - 1]
            if guard >= 0 and guard >> 2 in others and min(after.marbles[MARBLE_SLICES[index]]) <= SAFE_OFFSET:
                balance += sign
    return balance


def _remaining_hand(hand: list[str], move: Move) -> list[str]:
    if move.kind is MoveKind.BURN_HAND:
        return []
    kept = list(hand)
    kept.remove(move.card)
    return kept


class HeuristicBot:
    """Scores every legal move by previewing it; see the module docstring. Levels: easy, medium, hard."""

    def __init__(self, seed: int = 0, level: str = DEFAULT_LEVEL, weights: Weights | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}: use one of {', '.join(LEVELS)}")
        self.level = level
        self.name = f"bot:{level}"
        self.weights = weights if weights is not None else LEVELS[level]
        self._rng = random.Random(seed)

    def choose(self, state: GameState, moves: list[Move]) -> Move:
        if not moves:
            raise ValueError("no legal move to choose from")
        if len(moves) == 1:
            return moves[0]
        w = self.weights
        if w.random_rate and self._rng.random() < w.random_rate:
            return self._rng.choice(moves)
        return self.choose_seen(seat_view(state, state.turn), moves)

    def choose_seen(self, view: GameState, moves: list[Move]) -> Move:
        """``choose`` (without the random moves of easy) for a state that is already the seat's view, or a
        world sampled from one that the caller may spend (a search's rollout): no second view is made."""
        scores = self.planned_scores_seen(view, moves)
        return moves[max(range(len(moves)), key=scores.__getitem__)]

    def planned_scores_seen(self, view: GameState, moves: list[Move]) -> list[float]:
        """Each move's score as ``choose_seen`` weighs it (hard: the plan included), for a view or a world."""
        ctx = _Context(view, view.turn, self.weights)
        scores = [self.score(view, ctx, move) for move in moves]
        if self.weights.plan and self.weights.plan_candidates:
            scores = self._plan(view, ctx, moves, scores)
        return scores

    def scores(self, state: GameState, moves: list[Move]) -> list[float]:
        """The one-move score of each move, for the seat to act (for tests and tuning)."""
        return self.scores_seen(seat_view(state, state.turn), moves)

    def scores_seen(self, view: GameState, moves: list[Move]) -> list[float]:
        """``scores`` for a state that is already the seat's view, or a world sampled from one."""
        ctx = _Context(view, view.turn, self.weights)
        return [self.score(view, ctx, move) for move in moves]

    def score(self, view: GameState, ctx: _Context, move: Move) -> float:
        """How good the position after ``move`` is for the bot's side."""
        kept = _remaining_hand(view.hands[ctx.me], move)
        after = _copy(view)
        events = apply_move(after, move)
        return self._score_after(after, ctx, move, events, kept)

    def _score_after(
        self, after: GameState, ctx: _Context, move: Move, events: list[Event], kept: list[str],
    ) -> float:
        w = self.weights
        if after.winner is not None:
            return WIN_SCORE if ctx.me in after.winner else -WIN_SCORE
        marbles = after.marbles
        total = 0.0
        for index in ctx.team:
            total += _colour_value(ctx, marbles, index, w)
        for index in ctx.opponents:
            total -= w.opponent * _colour_value(ctx, marbles, index, w)
        for event in events:
            if (
                isinstance(event, MarbleCaptured) and event.marble >> 2 in ctx.team
                and COLOUR_INDEX[event.by_colour] in ctx.team
            ):
                total -= w.own_capture
        skip = None
        if move.kind is MoveKind.FORCE_BURN and after.forced_burn:
            skip = after.turn  # the forced player loses the turn in which it could have struck
            total += w.force_burn if COLOUR_INDEX[skip] in ctx.opponents else -w.force_burn
        for event in events:
            if isinstance(event, RandomBurn):  # KA11 costs the target a card and the turn; ON9 only the card
                if event.loses_turn:
                    skip = event.target
                worth = w.force_burn if event.loses_turn else w.force_burn / 2
                total += worth if COLOUR_INDEX[event.target] in ctx.opponents else -worth
        if w.entrance and ctx.book.goal_entrance is GoalEntrance.GUARDED:
            total += w.entrance * _entrances(after, ctx)
        if w.danger:
            total -= w.danger * _danger(after, ctx, skip)
        if w.cards:
            total += w.cards * _cards_value(after, ctx.me, kept)
        if w.opportunity:
            total += w.opportunity * _opportunity(after, ctx, kept)
        return total

    def _plan(self, view: GameState, ctx: _Context, moves: list[Move], scores: list[float]) -> list[float]:
        """Blend the best few moves' scores with the best follow-up the kept cards allow on the next turn.

        The board will have changed by then, so the follow-up only counts
        for ``plan``; it rewards moves that leave cards which work together
        (a king now and the 4 next, a marble placed where the queen kept
        reaches an opponent).
        """
        w = self.weights
        order = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)[:w.plan_candidates]
        floor = min(scores[i] for i in order)
        revised = [min(score, floor) - WIN_SCORE if i not in order else score for i, score in enumerate(scores)]
        me = ctx.me
        for i in order:
            move = moves[i]
            kept = _remaining_hand(view.hands[me], move)
            if not kept or abs(scores[i]) >= WIN_SCORE:
                continue
            after = _copy(view)
            apply_move(after, move)
            if after.winner is not None:
                continue
            after.turn = me
            after.forced_burn = False
            after.hands[me] = list(kept)
            best = -2 * WIN_SCORE
            for follow in legal_moves(after):
                if follow.kind is MoveKind.BURN_HAND or follow.kind is MoveKind.BURN:
                    value = scores[i]
                else:
                    then = _copy(after)
                    events = apply_move(then, follow)
                    value = self._score_after(then, ctx, follow, events, _remaining_hand(kept, follow))
                best = max(best, value)
            revised[i] = (1.0 - w.plan) * scores[i] + w.plan * best
        return revised
