"""The expert bot: determinised Monte Carlo search from the seat's view.

At each decision with a real choice the bot

1. merges the legal moves that leave the same position (the same board,
   the same cards kept) and answers at once when only one is left;
2. ranks what is left with the heuristic's one-move score and keeps the
   best few as candidates (the hard level's choice always among them);
3. samples worlds: the cards its seat has not seen (the deck less its own
   hand and every card played or burned) are dealt at random to the other
   hands and the pile, in their known sizes, and the reshuffles to come
   get a generator of their own;
4. in every world plays each candidate, then lets the heuristic
   (``policy``) play every seat, its own included, until the bot has had
   ``horizon`` more turns (``horizon=deal``: until its first turn after
   the next deal), and scores the position it then faces with the
   heuristic: the best one-move score it could reach from there, its
   partner's marbles counting as its own. A win or a loss on the way is
   final;
5. plays the candidate with the best mean over the worlds. Every
   candidate meets the same worlds, so the comparison is paired. In 4
   players, after a few worlds a candidate clearly behind the leader (by
   the paired differences, ``drop`` standard errors) gets no more
   rollouts, so the close calls get the rest; in 2 players every
   candidate gets every world (dropping early misjudged moves there).
   With ``trust`` the leader replaces the hard level's choice only when
   it is ahead by that many standard errors.

With ``infer`` the worlds are weighed by the opponents' moves of this
deal (inference.py): a world in which an opponent's move would have been
unlikely for a heuristic player holding those cards is drawn less often.

All the randomness comes from a generator seeded by the bot's seed and
what the seat can see, so the same view and seed give the same choice,
and re-dealing the hidden cards changes nothing. The work is fixed by
the options: ``think`` seconds buy plies (moves played in rollouts and
leaves scored) at a rate measured on one core, or ``samples`` caps the
worlds. ``think`` is also a hard limit on the clock (the wall clock, or
with ``clock=cpu`` the CPU time of the bot's own thread, for measuring
on a shared machine): when it runs short the bot decides on the worlds
it has finished (the only case in which timing can change a choice).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from voicejack.bots.heuristic import HeuristicBot
from voicejack.bots.inference import PastTurn, likelihood, past_turns
from voicejack.bots.view import seat_view
from voicejack.engine import GameState, Move, advance, legal_moves

EXPERT_LEVEL = "expert"
DEFAULT_THINK = 1.0
#: Work a second of CPU buys on one core of the reference machine, in plies: a move played in a rollout or a
#: leaf scored costs one. ``think`` seconds buy this many, so the work (and the choice) does not depend on how
#: busy the machine is.
PLIES_PER_SECOND = {2: 7000.0, 4: 5000.0}
#: ``horizon=deal``: play each world on to the end of the deal (and the bot's first turn of the next one).
DEAL_HORIZON = -1
#: Worlds every candidate gets before any is dropped, and how many standard errors below the leader drop it, by
#: the number of players. In 2 players dropping lost games (against hard on games 200-399 at 0.25 s: 108 of 200
#: won with it, 121 without): a capture swings a rollout so far that a few worlds misjudge a move.
MIN_WORLDS = 8
DROP_Z = {2: 0.0, 4: 2.0}
#: A won (or lost) rollout scores this, in the heuristic's cells of progress: more than any lead on the board.
WIN_VALUE = 1000.0
#: Every move of a rollout checks the clock against the budget less this margin (for answering after the last check).
SAFETY_SECONDS = 0.01
MAX_ROLLOUT_MOVES = 200
#: Worlds a decision searches at most when ``samples`` sets no limit.
MAX_WORLDS = 10_000
#: Worlds drawn at most for one world kept, when ``infer`` weighs them by the opponents' moves, and the plies
#: one move scored by the hard level (its plan included) costs there: about four times a rollout's ply.
INFER_TRIES = 8
PLANNED_SCORE_PLIES = 4


@dataclass(frozen=True, slots=True)
class ExpertOptions:
    """How the expert searches; a seat kind sets them as ``bot:expert:think=0.5:samples=40``."""

    think: float = DEFAULT_THINK   # seconds a decision may take at most
    samples: int = 0               # worlds per decision at most (each candidate's rollouts); 0 = what ``think`` buys
    candidates: int = 6            # moves searched (the heuristic's best)
    horizon: int = 1               # the bot's own turns played out in each world before the leaf (-1: "deal")
    policy: str = "medium"         # the heuristic level that plays the rollouts (easy without its random moves)
    clock: str = "wall"            # what ``think`` limits: "wall" time, or the "cpu" time of the bot's thread
    trust: float = 0.0             # standard errors by which a move must beat the hard level's choice to replace it
    drop: float | None = None      # standard errors behind the leader that end a candidate's rollouts (0: never);
                                   # None: DROP_Z for the number of players
    infer: float = 0.0             # temperature (cells) of the opponents' moves this deal as evidence on hands; 0 = off

    def plies(self, players: int) -> int:
        """The work planned for one decision, in plies (see PLIES_PER_SECOND)."""
        return int(self.think * PLIES_PER_SECOND[players])


def _horizon(text: str) -> int:
    if text == "deal":
        return DEAL_HORIZON
    return int(text)


#: Each option's parser and what it reads, for the error message.
_OPTION_TYPES: dict[str, tuple[Callable[[str], Any], str]] = {
    "think": (float, "float"), "samples": (int, "int"), "candidates": (int, "int"),
    "horizon": (_horizon, "whole number or 'deal'"), "policy": (str, "str"), "clock": (str, "str"),
    "trust": (float, "float"), "drop": (float, "float"), "infer": (float, "float"),
}
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def parse_expert_options(text: str) -> ExpertOptions:
    """Options after ``bot:expert:``, ``name=value`` separated by ':' or ',' (``think=0.5``); '' gives the defaults."""
    options = ExpertOptions()
    for item in filter(None, (part.strip() for part in text.replace(",", ":").split(":"))):
        name, equals, value = item.partition("=")
        name = name.strip()
        if not equals or name not in _OPTION_TYPES:
            raise ValueError(f"unknown expert option {item!r}: use {', '.join(f'{n}=...' for n in _OPTION_TYPES)}")
        try:
            parse, what = _OPTION_TYPES[name]
            typed = parse(value.strip())
        except ValueError:
            raise ValueError(f"expert option {name} needs a {what}, not {value!r}") from None
        options = replace(options, **{name: typed})
    if not options.think > 0 or not math.isfinite(options.think):
        raise ValueError("think is a number of seconds above 0")
    if (
        options.samples < 0 or options.candidates < 1 or options.horizon < DEAL_HORIZON or options.trust < 0
        or (options.drop is not None and options.drop < 0) or options.infer < 0
    ):
        raise ValueError(
            "samples must be at least 0, candidates at least 1, horizon at least 0 (or deal), trust, drop and "
            "infer at least 0"
        )
    if options.policy not in ("easy", "medium", "hard"):
        raise ValueError("the rollout policy is one of easy, medium, hard")
    if options.clock not in CLOCKS:
        raise ValueError("the clock is wall (the time a player waits) or cpu (the bot's own thread)")
    return options


def view_seed(seed: int, view: GameState, me: str) -> int:
    """A seed from the bot's seed and what ``me`` can see only, stable across processes (no ``hash()``)."""
    known = (
        seed, me, view.turn, view.dealer, view.deal_index, view.forced_burn, view.rules,
        tuple(view.marbles), tuple(sorted(view.hands[me])), tuple(sorted(view.discard)),
        tuple(len(view.hands[c]) for c in view.rules.seats), len(view.pile),
    )
    return int.from_bytes(hashlib.blake2b(repr(known).encode(), digest_size=8).digest(), "little")


def sample_world(view: GameState, me: str, rng: random.Random) -> GameState:
    """One world ``me`` cannot tell from the real one: the unseen cards dealt at random to the other hands
    and the pile (in their known sizes), and a generator of its own for the reshuffles to come."""
    world = seat_view(view, me, rng)
    world.rng = random.Random(rng.getrandbits(64))
    return world


def _still_in_the_race(values: list[list[float]], alive: list[int], drop: float) -> list[int]:
    """The candidates not clearly behind the leader: for each, the mean of its paired differences from the
    leader plus ``drop`` standard errors must reach zero."""
    leader = max(alive, key=lambda i: (sum(values[i]), -i))
    kept = []
    for index in alive:
        if index != leader:
            mean, error = _paired(values[index], values[leader])
            if mean + drop * error < 0:
                continue
        kept.append(index)
    return kept


def _paired(mine: list[float], theirs: list[float]) -> tuple[float, float]:
    """The mean of the paired differences and its standard error."""
    differences = [a - b for a, b in zip(mine, theirs)]
    count = len(differences)
    mean = sum(differences) / count
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (count - 1))
    return mean, spread / math.sqrt(count)


def _position_key(state: GameState, me: str) -> tuple[object, ...]:
    return (tuple(state.marbles), tuple(sorted(state.hands[me])), state.turn, state.forced_burn, state.winner)


class ExpertBot:
    """Searches sampled worlds with the engine; see the module docstring."""

    def __init__(self, seed: int = 0, options: ExpertOptions | None = None) -> None:
        self.options = options or ExpertOptions()
        self.name = f"bot:{EXPERT_LEVEL}"
        self.seed = seed
        self._policy = HeuristicBot(seed, self.options.policy)
        self._ranker = HeuristicBot(seed, "medium")
        self._planner = HeuristicBot(seed, "hard")
        self._now = CLOCKS[self.options.clock]
        #: Worlds searched at the last decision (0 when it answered without searching), the plies they cost,
        #: and whether the clock stopped the search before the plies planned: for tests and benchmarks.
        self.last_worlds = 0
        self.last_plies = 0
        self.last_cut_short = False

    def choose(self, state: GameState, moves: list[Move]) -> Move:
        deadline = self._now() + self.options.think - SAFETY_SECONDS
        self.last_worlds = self.last_plies = 0
        self.last_cut_short = False
        if not moves:
            raise ValueError("no legal move to choose from")
        if len(moves) == 1:
            return moves[0]
        me = state.turn
        view = seat_view(state, me)
        distinct = self._distinct(view, me, moves)
        if len(distinct) == 1:
            return distinct[0]
        candidates = self._candidates(view, distinct)
        if len(candidates) == 1:
            return candidates[0]
        turns = past_turns(view, state.history, me) if self.options.infer else []
        return candidates[self._search(view, me, candidates, deadline, turns)]

    def _world(self, view: GameState, me: str, rng: random.Random, turns: list[PastTurn]) -> tuple[GameState, int]:
        """A sampled world, drawn in proportion to how likely it makes the opponents' moves this deal (up to
        INFER_TRIES draws; then the likeliest one drawn), and the plies the weighing cost. The opponents are
        taken to score moves as the hard level does."""
        world = sample_world(view, me, rng)
        if not turns:
            return world, 0
        cost = 0
        best, best_weight = world, -1.0
        for _ in range(INFER_TRIES):
            weight, scored = likelihood(world, turns, self._planner, self.options.infer)
            cost += scored * PLANNED_SCORE_PLIES
            if rng.random() < weight:
                return world, cost
            if weight > best_weight:
                best, best_weight = world, weight
            world = sample_world(view, me, rng)
        return best, cost

    def _search(
        self, view: GameState, me: str, candidates: list[Move], deadline: float, turns: list[PastTurn],
    ) -> int:
        """The index of the candidate with the best mean over the worlds searched.

        Worlds are sampled (weighed by ``turns``, the opponents' moves of this deal, with ``infer``) until
        the plies planned are spent (or the clock runs short); with ``drop`` a candidate whose paired
        difference from the leader is clearly below zero stops getting rollouts, so the close calls get
        the worlds.
        """
        options = self.options
        rng = random.Random(view_seed(self.seed, view, me))
        values: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        budget = options.plies(view.rules.players)
        drop = DROP_Z[view.rules.players] if options.drop is None else options.drop
        most_worlds = options.samples or MAX_WORLDS
        used = worlds = 0
        while (used < budget or worlds < 2) and worlds < most_worlds and len(alive) > 1:
            world, cost = self._world(view, me, rng, turns)
            used += cost
            results: list[float] = []
            for index in alive:
                outcome = self._rollout(world, me, candidates[index], deadline)
                if outcome is None:
                    break
                results.append(outcome[0])
                used += outcome[1]
            else:
                for index, value in zip(alive, results):
                    values[index].append(value)
                worlds += 1
                if worlds >= MIN_WORLDS and drop:
                    alive = _still_in_the_race(values, alive, drop)
                continue
            self.last_cut_short = True
            break
        self.last_worlds, self.last_plies = worlds, used
        if worlds == 0:
            return 0
        # The leader among those still in the race (all have the same worlds); ties go to the earlier candidate.
        leader = max(alive, key=lambda i: (sum(values[i]), -i))
        if leader != 0 and 0 in alive and worlds > 1 and options.trust:
            mean, error = _paired(values[leader], values[0])
            if mean < options.trust * error:
                return 0
        return leader

    def _distinct(self, view: GameState, me: str, moves: list[Move]) -> list[Move]:
        """One move per position they leave (the first in legal order); an immediate win alone if there is one."""
        seen: dict[tuple[object, ...], Move] = {}
        for move in moves:
            after = view.copy(share_rng=True, keep_history=False)
            advance(after, move)
            if after.winner is not None and me in after.winner:
                return [move]
            seen.setdefault(_position_key(after, me), move)
        return list(seen.values())

    def _candidates(self, view: GameState, moves: list[Move]) -> list[Move]:
        """The hard level's choice first (the answer when the clock allows no world at all), then the
        heuristic's next best moves."""
        planned = self._planner.choose(view, moves)
        scores = self._ranker.scores(view, moves)
        order = sorted(range(len(moves)), key=lambda i: (-scores[i], i))
        others = [moves[i] for i in order if moves[i] != planned]
        return [planned, *others[:self.options.candidates - 1]]

    def _rollout(self, world: GameState, me: str, move: Move, deadline: float) -> tuple[float, int] | None:
        """Play ``move`` in a copy of ``world``, the policy for everybody until ``me`` has played ``horizon``
        more turns (or, with ``horizon=deal``, until its first turn after the next deal), and score what
        ``me`` then faces: (the score, the plies it cost), or None if the clock runs out first."""
        state = world.copy(share_rng=False, keep_history=False)
        advance(state, move)
        policy = self._policy
        horizon = self.options.horizon
        pile = len(state.pile)
        dealt = pile != len(world.pile)
        own_turns = 0
        for plies in range(1, MAX_ROLLOUT_MOVES + 1):
            if state.winner is not None:
                return (WIN_VALUE if me in state.winner else -WIN_VALUE), plies
            if self._now() > deadline:
                return None
            moves = legal_moves(state)
            if state.turn == me:
                if own_turns == horizon or (dealt and horizon == DEAL_HORIZON):
                    return self._leaf(state, moves), plies + 1
                own_turns += 1
            advance(state, moves[0] if len(moves) == 1 else policy.choose_seen(state, moves))
            if len(state.pile) != pile:
                dealt = True
        return self._leaf_anyone(state, me), MAX_ROLLOUT_MOVES + 1

    def _leaf(self, state: GameState, moves: list[Move]) -> float:
        best = max(self._ranker.scores_seen(state, moves))
        return max(-WIN_VALUE, min(WIN_VALUE, best))

    def _leaf_anyone(self, state: GameState, me: str) -> float:
        """A leaf at somebody else's turn (only when a rollout runs out of moves): the bot's side as it stands."""
        saved = state.turn
        state.turn = me
        try:
            moves = legal_moves(state)
            return self._leaf(state, moves) if moves else 0.0
        finally:
            state.turn = saved
