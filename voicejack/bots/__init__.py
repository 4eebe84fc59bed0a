"""Bots that take seats at the table.

    >>> from voicejack.engine import make_rules, new_game, legal_moves
    >>> from voicejack.bots import make_bot
    >>> state, _ = new_game(make_rules(players=2), seed=3)
    >>> bot = make_bot("bot:hard", seed=1)
    >>> moves = legal_moves(state)
    >>> bot.choose(state, moves) in moves
    True

Levels, weakest first (a seat kind "bot" alone means "medium"):

- random: any legal move, uniformly.
- easy: scores moves on the board as they leave it (progress, captures,
  the safe-zone lane) with no eye for danger or for the cards worth
  keeping, and plays a random move one time in four.
- medium: the full scoring of ``voicejack.bots.heuristic``: captures
  weighted by the victim's progress, never its own or its partner's
  marbles sent home unless nothing else is left, staying out of reach of
  the opponents behind, walls and bases, the 4 from the base, ordering
  arrivals in the safe zone, the partner's marbles as its own, the complex
  king sweep, 5 and 10, and burning the least useful card.
- hard: medium plus a plan one turn ahead with its own hand: the best
  few moves are weighed with the best follow-up the cards kept allow
  (a king now and the 4 next, say). Still well under 50 ms a decision.
- expert: searches. It deals the cards it cannot see at random many
  times over and, in each such world, plays its best few moves on with
  the heuristic for every seat before scoring the outcome; it plays the
  move that does best on average (``voicejack.bots.expert``). It thinks
  for at most a second a decision ("bot:expert:think=0.5" for less, or
  ``--think 0.5`` on the command line for every expert seat without its
  own budget).

Every bot decides from its seat's view only (``seat_view``): the board,
its own hand, the played cards and the sizes of the other hands.
"""

from voicejack.bots.base import Bot
from voicejack.bots.expert import ExpertBot, ExpertOptions
from voicejack.bots.factory import ALL_BOT_KINDS, BOT_KINDS, BOT_LEVELS, EXPERT_KIND, bot_level, make_bot
from voicejack.bots.heuristic import DEFAULT_LEVEL, LEVELS, HeuristicBot, Weights
from voicejack.bots.random_bot import RandomBot
from voicejack.bots.view import seat_view, unseen_cards

__all__ = [
    "ALL_BOT_KINDS", "BOT_KINDS", "BOT_LEVELS", "DEFAULT_LEVEL", "EXPERT_KIND", "LEVELS",
    "Bot", "ExpertBot", "ExpertOptions", "HeuristicBot", "RandomBot", "Weights",
    "bot_level", "make_bot", "seat_view", "unseen_cards",
]
