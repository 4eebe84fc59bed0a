"""Rule sets: what differs between VoiceJack's own rules (rules.md) and the two house rule sets (variants.md).

A rule set is a frozen description, one field per point where the sets
differ; the one move generator (rules.py, walking.py, dealing.py) reads
these fields and never asks which set it is playing. VoiceJack's own rules
have two versions (R3); Karooty (KA1-KA13) and Jackaroo Online (ON1-ON12)
have one each.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final, Literal

RuleSetName = Literal["voicejack", "karooty", "online"]

VOICEJACK: Final = "voicejack"
KAROOTY: Final = "karooty"
ONLINE: Final = "online"
RULE_SET_NAMES: Final = (VOICEJACK, KAROOTY, ONLINE)


class TurnOrder(Enum):
    SEATS = "seats"                            # R12: red, blue, green, yellow
    AGAINST_THE_MARBLES = "against"            # KA2: red, yellow, green, blue


class Deals(Enum):
    CYCLE = "cycle"                            # R9-R11: 4-4-5 with 4 players; the dealer moves on at a reshuffle
    FOUR_EACH_DEALER_MOVES = "four_each"       # ON2: 4 cards every deal, the dealer moves on every deal


class Burning(Enum):
    BY_MARBLES = "by_marbles"                  # R29-R30: one card with a marble on the track, else the hand
    ONE_CARD = "one_card"                      # KA4: always one card of the player's choice
    WHOLE_HAND = "whole_hand"                  # ON3: always the whole hand


class Passing(Enum):
    OWN_COLOUR_LANDS = "own_colour_lands"      # R22: never pass the own colour, landing on it captures
    OWN_COLOUR_BLOCKS = "own_colour_blocks"    # KA5: neither pass nor land on the own colour
    ANY = "any"                                # ON4: pass and land on any colour


class Walls(Enum):
    ANY_COLOUR = "any_colour"                  # R24: any marble behind protects
    NONE = "none"                              # KA5: no walls
    SAME_COLOUR = "same_colour"                # ON5: a marble of the same colour behind protects, except from it


class GoalEntrance(Enum):
    OPEN = "open"
    GUARDED = "guarded"                        # KA6: a marble of the other team on progress 75 bars the safe zone


class King(Enum):
    OUT_ONLY = "out_only"                      # R15 regular
    OUT_OR_SWEEP = "out_or_sweep"              # R31-R33, KA9 (plough), ON7: 13 sending home all it passes


class Five(Enum):
    MOVER_ONLY = "mover_only"                  # R13: the mover's marbles
    ANY_MARBLE = "any_marble"                  # R34: any marble not on its own base, never an opponent delivered home
    ANY_PASSING_ALL = "any_passing_all"        # KA10: passes everything but own bases; a pushed opponent goes round again
    ANY_BY_ITS_COLOUR = "any_by_its_colour"    # ON8: any marble by its colour's rules, never another colour's wall front


class Ten(Enum):
    WALK_ONLY = "walk_only"
    CHOSEN_BURN_LOSES_TURN = "chosen"          # R35: the next player burns a card they choose, as their turn
    RANDOM_BURN_LOSES_TURN = "random_skip"     # KA11: the next player (KA2) loses a random card and the turn
    RANDOM_BURN_OPPONENT = "random_opponent"   # ON9: the next opponent loses a random card, not the turn


class Jack(Enum):
    ANY_OTHER_COLOUR = "any_other_colour"      # R18, KA12: partner or opponent
    OPPONENTS = "opponents"                    # ON10: never a partner


@dataclass(frozen=True, slots=True, eq=False)
class RuleSet:
    """One rule set in one version: every point the move generator, dealing and the table read.

    Each is made once (below) and compared by identity, which keeps hashing it cheap on the hot path.
    """

    name: RuleSetName
    version: str                 # "regular" or "complex" (R3); the house sets have only "regular"
    turn_order: TurnOrder
    deals: Deals
    burning: Burning
    passing: Passing
    walls: Walls
    goal_entrance: GoalEntrance
    king: King
    five: Five
    ten: Ten
    jack: Jack
    #: KA1: only 4 players in teams.
    teams_only: bool
    #: ON11: the turn timer's default in seconds; 0 for a set that has none.
    default_turn_seconds: int

    @property
    def has_timer(self) -> bool:
        return self.default_turn_seconds > 0

    @property
    def random_ten(self) -> bool:
        """KA11, ON9: the 10's burn takes a card at random at once (no forced_burn state)."""
        return self.ten in (Ten.RANDOM_BURN_LOSES_TURN, Ten.RANDOM_BURN_OPPONENT)


VOICEJACK_REGULAR: Final = RuleSet(
    name=VOICEJACK, version="regular", turn_order=TurnOrder.SEATS, deals=Deals.CYCLE, burning=Burning.BY_MARBLES,
    passing=Passing.OWN_COLOUR_LANDS, walls=Walls.ANY_COLOUR, goal_entrance=GoalEntrance.OPEN, king=King.OUT_ONLY,
    five=Five.MOVER_ONLY, ten=Ten.WALK_ONLY, jack=Jack.ANY_OTHER_COLOUR, teams_only=False, default_turn_seconds=0,
)
VOICEJACK_COMPLEX: Final = RuleSet(
    name=VOICEJACK, version="complex", turn_order=TurnOrder.SEATS, deals=Deals.CYCLE, burning=Burning.BY_MARBLES,
    passing=Passing.OWN_COLOUR_LANDS, walls=Walls.ANY_COLOUR, goal_entrance=GoalEntrance.OPEN,
    king=King.OUT_OR_SWEEP, five=Five.ANY_MARBLE, ten=Ten.CHOSEN_BURN_LOSES_TURN, jack=Jack.ANY_OTHER_COLOUR,
    teams_only=False, default_turn_seconds=0,
)
KAROOTY_RULES: Final = RuleSet(
    name=KAROOTY, version="regular", turn_order=TurnOrder.AGAINST_THE_MARBLES, deals=Deals.CYCLE,
    burning=Burning.ONE_CARD, passing=Passing.OWN_COLOUR_BLOCKS, walls=Walls.NONE, goal_entrance=GoalEntrance.GUARDED,
    king=King.OUT_OR_SWEEP, five=Five.ANY_PASSING_ALL, ten=Ten.RANDOM_BURN_LOSES_TURN, jack=Jack.ANY_OTHER_COLOUR,
    teams_only=True, default_turn_seconds=0,
)
ONLINE_RULES: Final = RuleSet(
    name=ONLINE, version="regular", turn_order=TurnOrder.SEATS, deals=Deals.FOUR_EACH_DEALER_MOVES,
    burning=Burning.WHOLE_HAND, passing=Passing.ANY, walls=Walls.SAME_COLOUR, goal_entrance=GoalEntrance.OPEN,
    king=King.OUT_OR_SWEEP, five=Five.ANY_BY_ITS_COLOUR, ten=Ten.RANDOM_BURN_OPPONENT, jack=Jack.OPPONENTS,
    teams_only=False, default_turn_seconds=40,
)

RULE_SETS: Final = {
    (VOICEJACK, "regular"): VOICEJACK_REGULAR,
    (VOICEJACK, "complex"): VOICEJACK_COMPLEX,
    (KAROOTY, "regular"): KAROOTY_RULES,
    (ONLINE, "regular"): ONLINE_RULES,
}

#: The longest turn timer a table may set (variants.md, "Table files").
MAX_TURN_SECONDS: Final = 3600


def rule_set(name: str, version: str) -> RuleSet:
    """The rule set ``name`` in ``version``; ValueError, in a player's words, for a pair that does not exist."""
    if name not in RULE_SET_NAMES:
        raise ValueError(f"the rule set must be voicejack, karooty or online, not {name!r}")
    found = RULE_SETS.get((name, version))
    if found is None:
        raise ValueError(f"the {name} rule set has one version, regular, not {version!r}")
    return found
