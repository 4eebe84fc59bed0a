"""Every word the narrator says, in English: templates with named fields plus small language helpers.

The narrator only picks a template key and fills its fields, so a
translation is another ``Catalogue`` (its own templates, card names,
plurals and list joining) and touches no logic. Each template has a full
form (for learning) and a brief form (same facts, fewer words).

Written to be heard, not read: no symbols a speech synthesiser would spell
out, numbers as digits after a word that gives them meaning ("cell 31"),
and numbers never back to back without a word or a pause between them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

# key -> (full, brief)
TEMPLATES: Final[Mapping[str, tuple[str, str]]] = {
    # ---------------------------------------------------------------- places
    # "at" places: where a marble stands.
    "at.home": ("at home", "at home"),
    "at.cell": ("on cell {cell}", "on cell {cell}"),
    "at.base": ("on {base} at cell {cell}", "on {base} at cell {cell}"),
    "at.safe": ("on safe place {place}", "on safe place {place}"),
    # "from" places: where a move starts.
    "from.cell": ("from cell {cell}", "from cell {cell}"),
    "from.base": ("from {base} at cell {cell}", "from {base} at cell {cell}"),
    "from.safe": ("from safe place {place}", "from safe place {place}"),
    # "to" places: where a move lands.
    "to.cell": ("to cell {cell}", "to cell {cell}"),
    "to.base": ("to {base} at cell {cell}", "to {base} at cell {cell}"),
    "to.safe": ("to safe place {place}", "to safe place {place}"),
    "to.enter": ("into {owner} safe zone at place {place}", "into safe place {place}"),
    # Whose base a cell is, seen by the listener.
    "base.yours": ("your base", "your base"),
    "base.own": ("its own base", "its own base"),
    "base.of": ("{owner} base", "{owner} base"),
    # ------------------------------------------------------ people, marbles
    "you": ("you", "you"),
    "your": ("your", "your"),
    "player.partner": ("your partner {name}", "{name}"),
    "team": ("{first} and {second}", "{first} and {second}"),
    "marble.yours": ("your {marble}", "your {marble}"),
    "marble.own": ("your own {marble}", "your own {marble}"),
    "marble.partner": ("your partner's {marble}", "your partner's {marble}"),
    "marble.of": ("{owner} {marble}", "{owner} {marble}"),
    # Amounts. {n} is a digit string.
    "cells.one": ("1 cell", "1"),
    "cells.many": ("{n} cells", "{n}"),
    "steps.one": ("1 step", "1 step"),
    "steps.many": ("{n} steps", "{n} steps"),
    "cards.none": ("no cards", "no cards"),
    "cards.one": ("1 card", "1 card"),
    "cards.many": ("{n} cards", "{n} cards"),
    # ------------------------------------------------------------- options
    "opt.out": ("{card}: {marble} comes out onto {base} at cell {cell}.", "{card} out: {marble} to {base} at cell {cell}."),
    "opt.walk": ("{card}: {marble} walks {origin} {dest}.", "{card}: {marble}, {origin} {dest}."),
    "opt.ace": ("Ace as {n}: {marble} walks {origin} {dest}.", "Ace {n}: {marble}, {origin} {dest}."),
    "opt.back": ("Four, backwards: {marble} walks back {origin} {dest}.", "Four back: {marble}, {origin} {dest}."),
    "opt.seven": ("Seven, all on one marble: {marble} walks {origin} {dest}.", "Seven: {marble}, {origin} {dest}."),
    "opt.push": ("Five on {marble}: it moves {origin} {dest}.", "Five on {marble}: {origin} {dest}."),
    "opt.sweep": (
        "King sweep: {marble} walks 13 {origin} {dest}, sending home every marble it passes.",
        "King sweep: {marble}, {origin} {dest}.",
    ),
    "opt.plough": (
        "King plough: {marble} walks 13 {origin} {dest}, sending home every marble it passes, yours too.",
        "King plough: {marble}, {origin} {dest}.",
    ),
    "opt.sweep.clear": ("Nobody is in its path.", "Nobody in its path."),
    "opt.split.first": (
        "Seven, split: first {marble} walks {steps}, {origin} {dest}.",
        "Seven split: {steps} for {marble}, {origin} {dest}.",
    ),
    "opt.split.second": ("Then {marble} walks {steps}, {origin} {dest}.", "Then {steps} for {marble}, {origin} {dest}."),
    "opt.swap": ("Jack: {marble} {at} swaps places with {other} {other_at}.", "Jack: {marble} {at}, with {other} {other_at}."),
    "opt.swap.warning": (
        "Warning: {marble} goes back to {base}, the very start of its road, and gives up {steps} of progress.",
        "Warning: {marble} back to the start, losing {steps}.",
    ),
    "opt.force_burn": (
        "Ten, forcing a burn: {target} must burn a card and loses the turn. No marble moves.",
        "Ten, forced burn: {target} burns a card and loses the turn.",
    ),
    "opt.random_burn": (
        "Ten, random burn: {target} loses a card at random, and the turn. No marble moves.",
        "Ten: {target} loses a random card and the turn.",
    ),
    "opt.random_burn.keeps": (
        "Ten, random burn: {target} loses a card at random. No marble moves.",
        "Ten: {target} loses a random card.",
    ),
    "opt.push.round": (
        "Five on {marble}: it moves {origin} {dest}, past its own base, and must go round again.",
        "Five on {marble}: {origin} {dest}, round again.",
    ),
    "opt.burn": ("Burn the {card}: it goes unplayed, and your turn passes.", "Burn the {card}."),
    "opt.burn.forced": ("Burn the {card}, as the ten forces you to.", "Burn the {card}."),
    "opt.burn_hand": (
        "Burn your whole hand: {cards}. You are out until the next deal.",
        "Burn hand: {cards}. Out until the next deal.",
    ),
    "opt.capture": ("It sends home {marbles}.", "Sends home {marbles}."),
    "opt.capture.careful": ("Careful: it sends home {marbles}.", "Careful: sends home {marbles}."),
    "opt.capture.item": ("{marble} {at}", "{marble}"),
    "opt.win": ("That wins the match.", "Wins the match."),
    "opt.finish": (
        "That brings in your last marble, and you then play on {partner} marbles.",
        "Your last marble in; then you play {partner} marbles.",
    ),
    "opt.safe_near": ("That leaves it {steps} short of {owner} safe zone.", "{steps} short of {owner} safe zone."),
    "opt.safe_near.named": ("{marble} ends {steps} short of {owner} safe zone.", "{marble} ends {steps} short of {owner} safe zone."),
    "opt.near": ("Then {text}.", "{text}."),
    "opt.near.split": ("After the move, {items}.", "{items}."),
    "opt.near.item": ("{text}", "{marble}: {text}"),
    # Who is nearest, ahead and behind, within the reach of one card (said only when somebody is).
    "near.both": ("{behind} is {nb} behind {subject}, and {ahead} {na} ahead", "{behind} behind by {nb}, {ahead} ahead by {na}"),
    "near.behind": ("{behind} is {nb} behind {subject}", "{behind} behind by {nb}"),
    "near.ahead": ("{ahead} is {na} ahead of {subject}", "{ahead} ahead by {na}"),
    # ------------------------------------------------------------ outcomes
    # Full: who played what, from where to where. Brief: {play} is the card ("Nine"), or the player's
    # card ("Red's nine") when the marble is not the player's colour; then only where it landed.
    "out.play.by": ("{player} {card}", "{player} {card}"),
    "out.out": ("{player} played {card}: {marble} came out onto {base} at cell {cell}.", "{play}: {marble} out at cell {cell}."),
    "out.walk": ("{player} played {card}: {marble} walked {origin} {dest}.", "{play}: {marble} {dest}."),
    "out.ace": ("{player} played an ace as {n}: {marble} walked {origin} {dest}.", "{play} {n}: {marble} {dest}."),
    "out.back": ("{player} played a four: {marble} walked back {origin} {dest}.", "{play} back: {marble} {dest}."),
    "out.push": ("{player} played a five on {marble}: it moved {origin} {dest}.", "{play} on {marble}: {dest}."),
    "out.plough": ("{player} played a king to plough: {marble} walked 13 {origin} {dest}.", "{play} plough: {marble} {dest}."),
    "out.sweep": ("{player} played a king to sweep: {marble} walked 13 {origin} {dest}.", "{play} sweep: {marble} {dest}."),
    "out.split.first": (
        "{player} played a seven, split: first {marble} walked {steps}, {origin} {dest}.",
        "{play} split: {marble} {dest}.",
    ),
    "out.split.second": ("Then {marble} walked {steps}, {origin} {dest}.", "Then {marble} {dest}."),
    "out.swap": ("{player} played a jack: {marble} moved {dest}, and {other} {other_dest}.", "{play}: {marble} {dest}, {other} {other_dest}."),
    "out.swap.restart": ("{marble} is back on {base}, at the very start of its road.", "{marble} back at the start."),
    "out.captured.one": ("{marble} was sent home.", "{marble} sent home."),
    "out.captured.many": ("Sent home: {marbles}.", "Sent home: {marbles}."),
    "out.captured.item": ("{marble} {origin}", "{marble}"),
    "out.entered": ("{player} now has {count} of 4 marbles in.", "{player} has {count} in."),
    "out.entered.you": ("You now have {count} of 4 marbles in.", "You have {count} in."),
    # The house rule sets' 10 (KA11, ON9) and turn timer (ON11): the card goes at random.
    "out.random_burn": (
        "{player} played a ten: {target} burned {card} at random and loses the turn.",
        "Ten: {target} burned {card} at random, turn lost.",
    ),
    "out.random_burn.you": (
        "{player} played a ten: you burned {card} at random and lose your turn.",
        "Ten: you burned {card} at random, turn lost.",
    ),
    "out.random_burn.keeps": ("{player} played a ten: {target} burned {card} at random.", "Ten: {target} burned {card}."),
    "out.random_burn.keeps.you": ("{player} played a ten: you burned {card} at random.", "Ten: you burned {card}."),
    "out.time_out": ("Time is up for {player}, who burned {card} at random.", "Time up: {player} burned {card}."),
    "out.time_out.you": ("Time is up: you burned {card} at random.", "Time up: you burned {card}."),
    "out.push.round": (
        "{player} played a five on {marble}: it moved {origin} {dest}, past its own base, and must go round again.",
        "{play} on {marble}: {dest}, round again.",
    ),
    "out.force": ("{player} played a ten: {target} must burn a card and loses the turn.", "Ten: {target} must burn."),
    "out.force.you": ("{player} played a ten: you must burn a card and lose your turn.", "Ten: you must burn."),
    "out.burned": ("{player} could not move and burned {card}.", "{player} burned {card}."),
    "out.burned.forced": ("{player} burned {card}, forced by the ten.", "{player} burned {card}, forced."),
    "out.hand_burned": ("{player} could not move and burned the whole hand: {cards}.", "{player} burned {cards}."),
    "out.hand_burned.you": (
        "You could not move and burned your whole hand: {cards}. You sit out this deal.",
        "You burned {cards}.",
    ),
    "out.finished": (
        "{player} has all four marbles in and now plays on {partner} marbles.",
        "{player} has all four in and now plays {partner} marbles.",
    ),
    "out.finished.you": (
        "You have all four marbles in, and now you play on your partner {partner} marbles.",
        "You have all four in; now you play {partner} marbles.",
    ),
    "out.finished.partner": (
        "Your partner {player} has all four marbles in and now plays on your marbles.",
        "{player} has all four in and now plays your marbles.",
    ),
    "out.won.solo": ("{player} wins the match.", "{player} wins."),
    "out.won.solo.you": ("You win the match!", "You win!"),
    "out.won.team": ("{first} and {second} win the match.", "{first} and {second} win."),
    "out.won.team.you": ("You and your partner {partner} win the match!", "You and {partner} win!"),
    "out.reshuffled": ("The played cards were gathered and shuffled into a new pile.", "Cards reshuffled."),
    "out.dealt": ("New deal: {dealer} dealt {count} cards each, and {leader} plays first.", "New deal, {count} each; {leader} first."),
    "out.dealt.you_deal": ("New deal: you dealt {count} cards each, and {leader} plays first.", "New deal, {count} each; {leader} first."),
    "out.dealt.you_lead": ("New deal: {dealer} dealt {count} cards each, and you play first.", "New deal, {count} each; you first."),
    "out.your_cards": ("Your cards: {cards}.", "Your cards: {cards}."),
    # ---------------------------------------------------------- match start
    "start.regular": ("This match is played in the regular version.", "Regular version."),
    # The six changes of complex mode (R31-R35 and the base's protection from both).
    "start.complex": (
        "This match is played in complex mode, with six changes: the king can sweep 13 cells and send home "
        "every marble it passes, through walls and your own marbles too; the five moves any marble; "
        "the ten can force the next player to burn; and a marble on its own base is safe from the five and the sweep.",
        "Complex mode: the king sweeps 13, through walls and your own marbles; the five moves any marble; "
        "the ten forces a burn; a marble on its base is safe from both.",
    ),
    # The house rule sets (variants.md): their two or three most surprising differences, one sentence each.
    "start.karooty": (
        "This match is played by Karooty's rules. Turns go against the marbles: red, yellow, green, blue. "
        "Only your own marbles block you: there are no walls, but an opponent on your goal entrance keeps you out "
        "of your safe zone. The five moves any marble, the king ploughs 13 cells sending home all it passes, "
        "and the ten makes the next player lose a random card and the turn.",
        "Karooty rules: turns go red, yellow, green, blue. Only your own marbles block; no walls; "
        "an opponent on your goal entrance bars your safe zone. Five moves anyone, king ploughs, ten skips.",
    ),
    "start.online": (
        "This match is played by Jackaroo Online's rules. With no move you burn your whole hand, and every deal is "
        "4 cards. Any marble may be passed, your own too, and only two of one colour make a wall. "
        "The ten burns a random card of the next opponent, and the five moves any marble.",
        "Online rules: no move burns the hand; 4 cards each deal. Pass anyone; walls of one colour only. "
        "Ten burns an opponent's random card; five moves anyone.",
    ),
    "start.timer": (
        "Each turn has {seconds} seconds; when the time runs out, a card of your hand is burned at random.",
        "{seconds} seconds a turn.",
    ),
    "start.teams": ("Two teams: {first} against {second}, partners sitting opposite each other.", "Teams: {first} against {second}."),
    "start.teams.you": (
        "Two teams: {team} against {others}. You play {colour}, opposite your partner.",
        "You are {colour}, partner {partner}.",
    ),
    "start.solo": ("Four players, every player for themselves.", "Four players, each for themselves."),
    "start.solo.you": ("You play {colour}, every player for themselves.", "You are {colour}, each for themselves."),
    "start.two": ("Two players: {first} against {second}.", "Two players: {first} against {second}."),
    "start.two.you": ("You play {colour}, against {other}.", "You are {colour}, against {other}."),
    "start.colour.other": ("{player} plays {colour}.", "{player} is {colour}."),
    "start.order": ("Turn order: {players}.", "Order: {players}."),
    # The leader sits after the dealer (R11): brief says only who plays first.
    "start.deal": ("{dealer} deals, and {leader} plays first.", "{leader} first."),
    "start.deal.you_deal": ("You deal, and {leader} plays first.", "{leader} first."),
    "start.deal.you_lead": ("{dealer} deals, and you play first.", "You first."),
    # ------------------------------------------------------------- resuming
    "resume.you": ("You play {colour}.", "You are {colour}."),
    "resume.you.partner": ("You play {colour}, and your partner is {partner}.", "You are {colour}, partner {partner}."),
    "resume.table": ("{version}, {kind}.", "{version}, {kind}."),
    "version.regular": ("regular version", "regular"),
    "version.complex": ("complex mode", "complex"),
    "version.karooty": ("Karooty rules", "Karooty"),
    "version.online": ("Jackaroo Online rules", "Online"),
    "kind.teams": ("two teams of two", "teams"),
    "kind.solo": ("every player for themselves", "each for themselves"),
    "kind.two": ("two players", "two players"),
    # ---------------------------------------------------------------- turns
    "turn.you": ("Your turn, {colour}. You hold {cards}.", "Your turn: {cards}."),
    "turn.you.forced": (
        "Your turn, {colour}: the ten forces you to burn a card. You hold {cards}.",
        "Your turn, burn a card: {cards}.",
    ),
    "turn.you.partner": (
        "Your turn, {colour}, playing on {partner} marbles. You hold {cards}.",
        "Your turn, on {partner} marbles: {cards}.",
    ),
    "turn.you.burn": ("No card in your hand can move a marble, so you must burn one.", "No move: burn a card."),
    "turn.other": ("{player} turn.", "{player} turn."),
    "turn.other.forced": ("{player} turn: the ten forces a burn.", "{player} turn, forced burn."),
    "over.solo": ("The match is over: {player} won.", "Over: {player} won."),
    "over.solo.you": ("The match is over: you won.", "Over: you won."),
    "over.team": ("The match is over: {first} and {second} won.", "Over: {first} and {second} won."),
    "over.team.you": ("The match is over: you and {partner} won.", "Over: you and {partner} won."),
    # ----------------------------------------------------------------- hand
    "hand.you": ("You hold {cards}.", "Your cards: {cards}."),
    "hand.you.empty": ("You hold no cards: you are out until the next deal.", "No cards."),
    "hand.other": ("{player} holds {cards}.", "{player}: {cards}."),
    "hand.other.empty": ("{player} holds no cards.", "{player}: no cards."),
    # ---------------------------------------------------------------- score
    "score.team": ("{team} have {count} of 8 marbles in: {players}.", "{team} {count} of 8: {players}."),
    "score.team.you": ("Your team has {count} of 8 marbles in: {players}.", "Your team {count} of 8: {players}."),
    "score.team.goal": ("A team needs all 8 in to win.", "8 to win."),
    "score.solo": ("Marbles in: {players}.", "In: {players}."),
    "score.solo.goal": ("The first to bring in all 4 wins.", "4 to win."),
    "score.item": ("{count} for {player}", "{count} for {player}"),
    "score.none": ("none", "0"),
    # ------------------------------------------------------------ last card
    "last.none": ("No card has been played yet.", "No card played yet."),
    "last.told": ("Last card: {told}", "Last: {told}"),
    "last.card": ("Last card: {player} played {what}.", "Last: {player}, {what}."),
    "last.burn": ("Last card: {player} burned {card}.", "Last: {player} burned {card}."),
    "last.time_out": ("Last card: {player} ran out of time and burned {card} at random.", "Last: {player}, time out, {card}."),
    "last.burn_hand": ("Last card: {player} burned the whole hand.", "Last: {player} burned the hand."),
    "what.out": ("{card} to bring a marble out", "{card}, out"),
    "what.walk": ("{card} on {marble}", "{card}, {marble}"),
    "what.ace": ("an ace as {n} on {marble}", "ace {n}, {marble}"),
    "what.sweep": ("a king to sweep with {marble}", "king sweep, {marble}"),
    "what.plough": ("a king to plough with {marble}", "king plough, {marble}"),
    "what.split": ("a seven split, {first_steps} for {marble} and {second_steps} for {other}", "seven split, {first_steps} for {marble}, {second_steps} for {other}"),
    "what.swap": ("a jack to swap {marble} with {other}", "jack, {marble} with {other}"),
    "what.force": ("a ten to force a burn", "ten, forced burn"),
    "what.random_burn": ("a ten to burn a card at random", "ten, random burn"),
    # ---------------------------------------------------------------- where
    "where": ("{marble} is {at}.", "{marble}, {at}."),
    "where.near": ("{text}.", "{text}."),
    "where.safe_near": ("It is {steps} short of {owner} safe zone.", "{steps} short of {owner} safe zone."),
    "where.subject": ("it", "it"),
    "where.absent": ("Nobody plays {colour} at this table.", "No {colour} at this table."),
    # ---------------------------------------------------------------- board
    # The readout is a list of lines: a summary, one line per player, the last card, the table and the pile.
    "board.summary": ("{turn} {standing}", "{turn} {standing}"),
    "board.turn.you": ("It is your turn.", "Your turn."),
    "board.turn.you.forced": ("It is your turn, and the ten forces you to burn a card.", "Your turn, forced burn."),
    "board.turn.other": ("It is {player} turn.", "{player} turn."),
    "board.turn.other.forced": ("It is {player} turn, forced by the ten to burn a card.", "{player} turn, forced burn."),
    "board.ahead": ("Ahead: {side}. {sides}.", "Ahead: {side}. {sides}."),
    "board.level": ("Nobody is ahead. {sides}.", "Level. {sides}."),
    "board.side": ("{side}: {count_in} in, {count_out} on the track", "{side} {count_in} in, {count_out} out"),
    "board.side.in": ("{side}: {count_in} in", "{side} {count_in} in"),
    "board.side.out": ("{side}: {count_out} on the track", "{side} {count_out} out"),
    "board.side.home": ("{sides}: all at home", "{sides} all home"),
    "board.everyone_home": ("every marble is at home", "all at home"),
    "board.who.you": ("You, {colour}", "You, {colour}"),
    "board.who.named": ("{player}, {colour}", "{player}, {colour}"),
    "board.who": ("{player}", "{player}"),
    "board.who.partner": ("{who}, your partner", "{who}, partner"),
    "board.player": ("{who}: {details}. {marbles}.", "{who}: {details}. {marbles}."),
    "board.out_of_deal": ("out of this deal", "out of this deal"),
    "board.finished": ("playing on {partner} marbles", "playing {partner} marbles"),
    "board.marble": ("{marble} {at}", "{marble} {at}"),
    "board.home": ("{marbles} at home", "{marbles} at home"),
    "board.all_home": ("all four at home", "all at home"),
    "board.all_in": ("all four in the safe zone", "all in"),
    "board.footer": ("{version}, {kind}. {cards} left in the pile.", "{version}, {kind}. Pile: {cards}."),
    # --------------------------------------------------- taking a move back
    # {player} is possessive ("Blue's"); {phrase} the move in the notation the player says.
    "undo.offer.first": ("To undo that move, {how} within {seconds} seconds.",
                         "{how} within {seconds} seconds to undo it."),
    # How to say it, in each listening mode (--listen): {wake} is the wake word.
    "undo.how.open": ("say take that back", "say take that back"),
    "undo.how.wake": ("say {wake}, take that back", "say {wake}, take that back"),
    "undo.how.push": ("press Enter and say take that back", "press Enter, say take that back"),
    "undo.offer": ("You can still take that back.", "You may take it back."),
    "undo.done.you": ("Took back your move: {phrase}. Everything is as it was before it.", "Took back: {phrase}."),
    "undo.done": ("Took back {player} move: {phrase}. Everything is as it was before it.",
                  "Took back {player} move: {phrase}."),
    "undo.hint": ("You can also say take that back, to undo {player} move.", "Or take back {player} move."),
    "undo.nothing": ("There is no move to take back yet.", "Nothing to take back."),
    "undo.again": ("That move has already been taken back: only the last move can be, and only once.",
                   "Already taken back."),
    "undo.bot": ("That was {player} move; only your own last move can be taken back.",
                 "That was {player} move, not yours."),
    "undo.since": ("{name} has played since, so it is too late to take that move back.",
                   "{name} has played since: too late to take it back."),
    "undo.timer": ("The turn timer burned that card, not you: a timed-out turn cannot be taken back.",
                   "A timed-out turn can't be taken back."),
    "undo.forced": ("That hand was burned because no card could move, so there is nothing to take back.",
                    "A forced burn can't be taken back."),
    "undo.won": ("That move won the match; a winning move cannot be taken back.", "A winning move can't be taken back."),
    "undo.deal": ("That move ended the deal and new cards were dealt, so it cannot be taken back.",
                  "New cards were dealt: it can't be taken back."),
    "undo.random": ("That ten burned a card from {player} hand at random for everyone to hear, so it cannot be taken back.",
                    "A card was burned at random: it can't be taken back."),
}

COLOUR_WORDS: Final[Mapping[str, str]] = {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow"}

CARD_WORDS: Final[Mapping[str, str]] = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king",
}
CARD_PLURALS: Final[Mapping[str, str]] = {
    "A": "aces", "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
    "8": "eights", "9": "nines", "10": "tens", "J": "jacks", "Q": "queens", "K": "kings",
}
COUNT_WORDS: Final[Mapping[int, str]] = {2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class Catalogue:
    """One language's wording. Narrator logic calls only these methods."""

    templates: Mapping[str, tuple[str, str]] = field(default_factory=lambda: TEMPLATES)
    colours: Mapping[str, str] = field(default_factory=lambda: COLOUR_WORDS)
    card_words: Mapping[str, str] = field(default_factory=lambda: CARD_WORDS)
    card_plurals: Mapping[str, str] = field(default_factory=lambda: CARD_PLURALS)
    count_words: Mapping[int, str] = field(default_factory=lambda: COUNT_WORDS)
    # Seat names that are really a pronoun (the table calls a lone human "You"):
    # said as the seat's colour, so nobody hears "You's turn".
    pronoun_names: frozenset[str] = frozenset({"you"})

    def text(self, key: str, brief: bool, **fields: object) -> str:
        full_form, brief_form = self.templates[key]
        return (brief_form if brief else full_form).format(**fields)

    # Small language helpers: lists, plurals, names.

    def join(self, items: Sequence[str]) -> str:
        """'a', 'a and b', 'a, b and c'."""
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        return ", ".join(items[:-1]) + " and " + items[-1]

    def series(self, items: Sequence[str]) -> str:
        """Items one after another with a pause between: 'a, b, c'."""
        return ", ".join(items)

    def clauses(self, items: Sequence[str]) -> str:
        """Whole clauses one after another: 'a; b'."""
        return "; ".join(items)

    def sentence(self, text: str) -> str:
        """Start a sentence: capital first letter (the rest is left alone: names keep their case)."""
        return text[:1].upper() + text[1:]

    def colour(self, colour: str) -> str:
        return self.colours[colour]

    def default_name(self, colour: str) -> str:
        """A seat nobody named is called by its colour: 'Blue'."""
        return self.colours[colour].capitalize()

    def marble(self, colour: str, number: int) -> str:
        return f"{self.colours[colour]} {number}"

    def marble_group(self, colour: str, numbers: Sequence[int]) -> str:
        """Several marbles of one colour said once: 'red 2, 3 and 4'."""
        return f"{self.colours[colour]} {self.join([str(n) for n in numbers])}"

    def possessive(self, name: str) -> str:
        return f"{name}'s"

    def card(self, rank: str) -> str:
        return self.card_words[rank]

    def card_a(self, rank: str) -> str:
        """The card with its article: 'a nine', 'an ace'."""
        word = self.card_words[rank]
        return f"an {word}" if word[0] in "aeiou" else f"a {word}"

    def cards(self, ranks: Sequence[str], brief: bool) -> str:
        """A hand read out grouped, in the given order: 'an ace, two nines and a king'."""
        counts: dict[str, int] = {}
        for rank in ranks:
            counts[rank] = counts.get(rank, 0) + 1
        items = []
        for rank, count in counts.items():
            if count == 1:
                items.append(self.card(rank) if brief else self.card_a(rank))
            else:
                items.append(f"{self.count_words[count]} {self.card_plurals[rank]}")
        return self.join(items)

    def cells(self, n: int, brief: bool) -> str:
        return self.text("cells.one" if n == 1 else "cells.many", brief, n=n)

    def steps(self, n: int, brief: bool) -> str:
        return self.text("steps.one" if n == 1 else "steps.many", brief, n=n)

    def card_count(self, n: int, brief: bool) -> str:
        key = "cards.none" if n == 0 else "cards.one" if n == 1 else "cards.many"
        return self.text(key, brief, n=n)


ENGLISH: Final = Catalogue()
