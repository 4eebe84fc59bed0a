"""From what was heard (or typed) to exactly one Resolution.

The order of business for one utterance:

1. Normalise every hypothesis (the best text and the n-best alternatives).
2. An exact hit of the best text on a form of the language wins, the
   pending question's answers first, then commands, then moves.
3. Otherwise refuse plainly what can be recognised as a mistake: not your
   turn, a card not in hand, a well-formed but illegal move, burning when
   a card can move, an option number that does not exist.
4. Otherwise score every form by word edit distance over all hypotheses
   and take the best only when it is clearly best; when several are close,
   ask with numbered choices. Never an illegal move, never a guess.

A move that was not heard exactly, or heard with low confidence, is
confirmed ("..., yes or no?"); so is one that sends home the player's own
or partner's marble, and so are quit and leave.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

from voicejack.engine import (
    GameState,
    Move,
    MoveKind,
    is_home,
    is_safe,
    legal_moves,
    marble_colour,
    marble_id,
    marble_name,
    mover_colour,
    play,
)
from voicejack.engine import events as ev
from voicejack.engine.board import COLOUR_INDEX, NUMBER_WORDS
from voicejack.engine.cards import WORD_RANKS
from voicejack.engine.moves import PhraseSyntaxError, parse_phrase_syntax
from voicejack.language import prompts
from voicejack.language.dialog import QuestionBuilder
from voicejack.language.forms import (
    TIER_MOVE,
    Entry,
    MovesTarget,
    Pick,
    Target,
    answer_entries,
    command_entries,
    move_entries,
    numbers_are_labels,
)
from voicejack.hearing import Grammar, Heard
from voicejack.language.match import CLEAR_MARGIN, allowed_cost, word_distance
from voicejack.language.normalise import Key, Normalised, normalise
from voicejack.language.resolution import (
    Ask,
    Command,
    Confirm,
    ConfirmPolicy,
    Dialog,
    LanguageSettings,
    NotUnderstood,
    Resolution,
)
from voicejack.language.words import CARD_WORDS, COLOUR_WORDS, NUMBER_VALUES, ORDINAL_VALUES

#: A move form matched while a question is pending costs a little more than an answer.
_MOVE_PENALTY_IN_DIALOG = 0.5
#: A second reading of the words ("fifteen" as "one five") is a little less likely than the literal one.
_READING_PENALTY = 0.5
#: The card is named first and card names sound nothing alike: hearing one for another is less likely.
_OTHER_CARD_PENALTY = 1.0


_BASE_CACHE: OrderedDict[tuple[object, ...], tuple[list[Move], tuple[Entry, ...]]] = OrderedDict()
_BASE_CACHE_SIZE = 16
_BASE_LOCK = threading.Lock()


def _fingerprint(state: GameState, seat: str) -> tuple[object, ...]:
    """Everything the legal moves and the forms depend on (states are mutable, so never their identity)."""
    hands = tuple((colour, tuple(hand)) for colour, hand in state.hands.items())
    return (seat, state.rules, state.seats, tuple(state.marbles), hands, state.turn, state.forced_burn, state.winner)


def _base(state: GameState, seat: str, acting: bool) -> tuple[list[Move], tuple[Entry, ...]]:
    """The legal moves and the command and move forms, remembered for the last few positions.

    A table builds the grammar and then resolves what was heard in the same
    position, often several times over a dialog: this is the costly part.
    """
    key = _fingerprint(state, seat)
    with _BASE_LOCK:
        found = _BASE_CACHE.get(key)
        if found is not None:
            _BASE_CACHE.move_to_end(key)
            return found
    moves = legal_moves(state) if acting else []
    entries = list(command_entries(state, seat))
    if acting:
        entries.extend(move_entries(state, seat, moves))
    built = (moves, tuple(entries))
    with _BASE_LOCK:
        _BASE_CACHE[key] = built
        while len(_BASE_CACHE) > _BASE_CACHE_SIZE:
            _BASE_CACHE.popitem(last=False)
    return built


class Language:
    """The forms in play for one position, seat and pending question."""

    def __init__(self, state: GameState, seat: str, dialog: Dialog = None) -> None:
        self.state = state
        self.seat = seat
        self.acting = seat == state.turn and state.winner is None
        moves, base = _base(state, seat, self.acting)
        self.moves: list[Move] = moves
        self.dialog = self._still_valid(dialog)
        self.builder = QuestionBuilder(state, seat)
        entries = list(base)
        if isinstance(self.dialog, Ask):
            # While a question is pending, a marble named alone answers it; it does not start afresh.
            entries = [entry for entry in entries if not entry.vague]
            entries.extend(answer_entries(self.dialog))
        self.entries = entries
        self.by_key: dict[Key, list[Entry]] = {}
        for entry in entries:
            self.by_key.setdefault(entry.key, []).append(entry)

    def _still_valid(self, dialog: Dialog) -> Dialog:
        """A question or confirmation about moves that are no longer legal is forgotten."""
        if isinstance(dialog, Ask):
            return dialog if self.acting and dialog.moves() <= set(self.moves) else None
        if isinstance(dialog, Confirm) and isinstance(dialog.move, Move):
            return dialog if self.acting and dialog.move in self.moves else None
        return dialog

    @property
    def burning(self) -> bool:
        return bool(self.moves) and all(m.kind in (MoveKind.BURN, MoveKind.BURN_HAND) for m in self.moves)

    @property
    def own(self) -> str:
        return mover_colour(self.state, self.seat) if self.seat in self.state.rules.seats else self.seat

    def grammar(self) -> Grammar:
        return Grammar(tuple(sorted({entry.form for entry in self.entries if entry.spoken})))


Describe = Callable[[GameState, Move, str], str]


def brief_description(state: GameState, move: Move, listener: str) -> str:
    """The narrator's brief account of an option (the default wording of confirmations)."""
    from voicejack.narration.narrator import Narrator, Verbosity

    return Narrator(Verbosity.BRIEF).describe_option(state, move, listener)


class Resolver:
    """Resolves utterances with one set of settings (confirmation policy, confidence thresholds).

    ``describe(state, move, listener)`` words a move for its confirmation
    prompt; by default the narrator's brief description. A table passes its
    own narrator's ``describe_option`` to follow the player's verbosity.
    """

    def __init__(self, settings: LanguageSettings | None = None, describe: Describe | None = None) -> None:
        self.settings = settings or LanguageSettings()
        self.describe: Describe = describe or brief_description

    # Public API ------------------------------------------------------------

    def phrase_set(self, state: GameState, seat: str, dialog: Dialog = None) -> Grammar:
        """Everything a recogniser should listen for now, for ``seat``."""
        return Language(state, seat, dialog).grammar()

    def resolve(self, state: GameState, seat: str, heard: Heard | str, dialog: Dialog = None) -> Resolution:
        """What the game should do on hearing ``heard`` from ``seat`` (a plain string counts as typed)."""
        if isinstance(heard, str):
            heard = Heard(heard, typed=True)
        language = Language(state, seat, dialog)
        texts = [heard.text] + [alt for alt in dict.fromkeys(heard.alternatives) if alt != heard.text]
        hypotheses = [normalise(text, heard.typed) for text in texts]
        primary = hypotheses[0]
        if not primary.primary:
            return NotUnderstood(prompts.say_more() if primary.raw_words else prompts.empty(), "empty")
        low_confidence = False
        confidences = _meaning_confidences(heard, primary)
        if confidences:
            if sum(confidences) / len(confidences) < self.settings.reject_confidence:
                return NotUnderstood(prompts.unclear(), "unclear")
            low_confidence = min(confidences) < self.settings.low_confidence

        exact = _exact_targets(language, primary)
        if exact:
            vague = any(entry.vague and entry.target in exact for entry in language.by_key[primary.primary])
            if len(exact) == 1:
                target = exact[0]
                certain = not (low_confidence or vague or _alternatives_disagree(language, hypotheses[1:], target))
                return self._finish(language, target, certain)
            return self._ambiguous(language, exact, heard.text, certain=not low_confidence)

        refusal = _refusal(language, primary)
        if refusal is not None:
            return refusal

        scores = self._score(language, hypotheses)
        if not scores:
            return NotUnderstood(prompts.unknown(heard.text), "unknown")
        best = min(scores.values())
        close = [target for target, cost in scores.items() if cost < best + CLEAR_MARGIN]
        if len(close) == 1:
            return self._finish(language, close[0], certain=False)
        return self._ambiguous(language, close, heard.text)

    # Scoring ----------------------------------------------------------------

    def _score(self, language: Language, hypotheses: Sequence[Normalised]) -> dict[Target, float]:
        """The lowest acceptable cost of each target over every hypothesis and reading."""
        scores: dict[Target, float] = {}
        dialog_pending = language.dialog is not None
        for rank, hypothesis in enumerate(hypotheses):
            for number, reading in enumerate(hypothesis.readings):
                if not reading:
                    continue
                extra = rank * self.settings.alternative_penalty + (_READING_PENALTY if number else 0.0)
                for entry in language.entries:
                    limit = allowed_cost(len(reading), len(entry.key))
                    if abs(len(reading) - len(entry.key)) > limit:
                        continue
                    distance = word_distance(reading, entry.key, limit)
                    if distance > limit:
                        continue
                    cost = distance + extra
                    if reading[0] != entry.key[0] and reading[0] in CARD_WORDS and entry.key[0] in CARD_WORDS:
                        cost += _OTHER_CARD_PENALTY
                    if dialog_pending and entry.tier == TIER_MOVE:
                        cost += _MOVE_PENALTY_IN_DIALOG
                    if cost < scores.get(entry.target, float("inf")):
                        scores[entry.target] = cost
        return scores

    # Outcomes ---------------------------------------------------------------

    def _finish(self, language: Language, target: Target, certain: bool) -> Resolution:
        dialog = language.dialog
        if isinstance(target, Command):
            if isinstance(dialog, Confirm) and target.name == "yes":
                return dialog.move
            if target.name in self.settings.destructive_commands:
                return Confirm(target, prompts.confirm_command(target.name))
            return target
        if isinstance(target, Pick):
            assert isinstance(dialog, Ask)
            then = dialog.choices[target.index].then
            return then if isinstance(then, Ask) else self._finish_move(language, then, certain)
        built = language.builder.build(target.moves)
        return built if isinstance(built, Ask) else self._finish_move(language, built, certain)

    def _finish_move(self, language: Language, move: Move, certain: bool) -> Move | Confirm:
        policy = self.settings.confirm
        own_capture = self.settings.confirm_own_captures and sends_home_own(language.state, language.seat, move)
        if policy is ConfirmPolicy.ALWAYS or own_capture or (policy is ConfirmPolicy.AUTO and not certain):
            description = self.describe(language.state, move, language.seat)
            return Confirm(move, prompts.confirm_move(description))
        return move

    def _ambiguous(self, language: Language, targets: Sequence[Target], text: str, certain: bool = False) -> Resolution:
        """Several meanings are equally close: ask between them, never guess."""
        dialog = language.dialog
        if all(isinstance(t, Pick) for t in targets) and isinstance(dialog, Ask):
            picks = sorted(t.index for t in targets if isinstance(t, Pick))
            return Ask(dialog.question, tuple(dialog.choices[i] for i in picks), dialog.topic)
        move_sets: list[frozenset[Move]] = []
        for target in targets:
            if isinstance(target, MovesTarget):
                move_sets.append(target.moves)
            elif isinstance(target, Pick) and isinstance(dialog, Ask):
                then = dialog.choices[target.index].then
                move_sets.append(frozenset((then,)) if isinstance(then, Move) else then.moves())
            else:
                return NotUnderstood(prompts.unknown(text), "unknown")
        # A vaguer reading ("nine" for "nine red") adds nothing to the sharper ones it contains.
        sharp = [s for s in move_sets if not any(other < s for other in move_sets)]
        moves = frozenset().union(*sharp)
        built = language.builder.build(moves)
        return built if isinstance(built, Ask) else self._finish_move(language, built, certain)


# Module-level conveniences with default settings --------------------------------

_DEFAULT = Resolver()


def resolve(state: GameState, seat: str, heard: Heard | str, dialog: Dialog = None,
            settings: LanguageSettings | None = None) -> Resolution:
    """See Resolver.resolve (default wording; pass ``settings`` to change the confirmation policy)."""
    return (Resolver(settings) if settings else _DEFAULT).resolve(state, seat, heard, dialog)


def phrase_set(state: GameState, seat: str, dialog: Dialog = None) -> Grammar:
    """See Resolver.phrase_set."""
    return _DEFAULT.phrase_set(state, seat, dialog)


def sends_home_own(state: GameState, seat: str, move: Move) -> bool:
    """Would ``move`` send home a marble of ``seat``'s own colour or partner's?"""
    if move.kind in (MoveKind.BURN, MoveKind.BURN_HAND, MoveKind.FORCE_BURN, MoveKind.SWAP):
        return False
    team = set(state.rules.team_of(seat)) if seat in state.rules.seats else {seat}
    _, events = play(state, move)
    return any(isinstance(e, ev.MarbleCaptured) and marble_colour(e.marble) in team for e in events)


# Helpers ------------------------------------------------------------------------


def _meaning_confidences(heard: Heard, primary: Normalised) -> list[float]:
    """Confidences of the words that carried meaning (fillers do not count)."""
    if not heard.word_confidences or len(heard.word_confidences) != len(primary.raw_words):
        return []
    return [c for c, kept in zip(heard.word_confidences, primary.content, strict=True) if kept]


def _exact_targets(language: Language, hypothesis: Normalised) -> list[Target]:
    """Distinct targets whose key equals the literal reading, from the best tier only.

    Other readings ("red fifteen" as "red one five") are guesses about the
    words, so they only take part in scoring.
    """
    hits = language.by_key.get(hypothesis.primary, [])
    if not hits:
        return []
    tier = min(entry.tier for entry in hits)
    return list(dict.fromkeys(entry.target for entry in hits if entry.tier == tier))


def _alternatives_disagree(language: Language, alternatives: Iterable[Normalised], target: Target) -> bool:
    """Does an n-best alternative say another move or answer exactly? Then the best text is not certain."""
    for alternative in alternatives:
        for other in _exact_targets(language, alternative):
            if other != target and not isinstance(other, Command):
                return True
    return False


def _number(word: str) -> int | None:
    return NUMBER_VALUES.get(word)


def _option_number(words: Key, dialog: Ask) -> int | None:
    """The option a bare "three" / "option three" / "third" names, if the words are only that."""
    if len(words) == 2 and words[0] == "option":
        return _number(words[1])
    if len(words) == 1 and words[0] in ORDINAL_VALUES:
        return ORDINAL_VALUES[words[0]]
    if len(words) == 1 and not numbers_are_labels(dialog):
        return _number(words[0])
    return None


def _marble_in(words: Key, own: str) -> int | None:
    """A marble named by exactly these two words ("red one", "marble one")."""
    if len(words) != 2 or words[1] not in NUMBER_WORDS:
        return None
    colour = own if words[0] == "marble" else words[0]
    if colour not in COLOUR_INDEX:
        return None
    return marble_id(colour, NUMBER_WORDS.index(words[1]) + 1)


def _refusal(language: Language, hypothesis: Normalised) -> NotUnderstood | None:
    """A plain "no" for what is clearly a mistake, before any fuzzy matching."""
    state = language.state
    words = hypothesis.primary
    if state.winner is not None:
        return NotUnderstood(prompts.over(), "over")
    if not language.acting:
        return NotUnderstood(prompts.not_your_turn(state.turn), "not_your_turn")
    dialog = language.dialog
    if isinstance(dialog, Ask):
        refusal = _answer_refusal(language, dialog, words)
        if refusal is not None:
            return refusal
    hand = state.hands[language.seat]
    first = words[0]
    if first == "burn":
        if len(words) >= 2 and words[1] in CARD_WORDS and WORD_RANKS[words[1]] not in hand:
            return NotUnderstood(prompts.no_card(WORD_RANKS[words[1]]), "no_card")
        if state.forced_burn and words[1:] == ("hand",):
            return NotUnderstood(prompts.forced_burn(), "forced_burn")
        if not language.burning:
            return NotUnderstood(prompts.illegal(" ".join(words), "you may burn only when no card can move a marble"), "illegal")
        whole_hand = language.moves[0].kind is MoveKind.BURN_HAND
        if words[1:] == ("hand",) and not whole_hand:
            return NotUnderstood(prompts.illegal("burn hand", "a marble of yours is on the track, so burn one card"), "illegal")
        if len(words) >= 2 and words[1] in CARD_WORDS and whole_hand:
            return NotUnderstood(prompts.must_burn(True), "must_burn")
        return None
    if first in CARD_WORDS:
        rank = WORD_RANKS[first]
        if rank not in hand:
            return NotUnderstood(prompts.no_card(rank), "no_card")
        if state.forced_burn:
            return NotUnderstood(prompts.forced_burn(), "forced_burn")
        if language.burning:
            return NotUnderstood(prompts.must_burn(language.moves[0].kind is MoveKind.BURN_HAND), "must_burn")
        if not any(move.card == rank for move in language.moves):
            return NotUnderstood(prompts.card_stuck(rank), "illegal")
        phrase = _well_formed(words, language.own)
        if phrase is not None:
            return NotUnderstood(prompts.illegal(phrase, _why_illegal(language, phrase)), "illegal")
        return None
    if state.forced_burn:
        return NotUnderstood(prompts.forced_burn(), "forced_burn")
    marble = _marble_in(words, language.own)
    if marble is not None and dialog is None:
        return NotUnderstood(prompts.marble_stuck(marble_name(marble).capitalize()), "illegal")
    return None


def _answer_refusal(language: Language, dialog: Ask, words: Key) -> NotUnderstood | None:
    """An answer of the right shape that is not among the choices."""
    if len(words) == 1 and words[0] in NUMBER_VALUES and numbers_are_labels(dialog):
        return NotUnderstood(prompts.not_a_choice(words[0].capitalize()), "no_option")
    number = _option_number(words, dialog)
    if number is not None and not 1 <= number <= len(dialog.choices):
        return NotUnderstood(prompts.no_option(number, len(dialog.choices)), "no_option")
    if dialog.topic in ("marble", "second"):
        marble = _marble_in(words, language.own)
        if marble is not None:
            return NotUnderstood(prompts.not_a_choice(marble_name(marble)), "no_option")
    if dialog.topic == "steps" and len(words) == 1 and words[0] in NUMBER_VALUES:
        return NotUnderstood(prompts.not_a_choice(prompts.numbered(NUMBER_VALUES[words[0]], "step")), "no_option")
    return None


def _well_formed(words: Key, own: str) -> str | None:
    """The canonical spelling of words that form a complete move phrase, else None."""
    spelled: list[str] = []
    for index, word in enumerate(words):
        if word == "marble" and index + 1 < len(words) and words[index + 1] in NUMBER_WORDS:
            spelled.append(own)
        else:
            spelled.append(word)
    try:
        return " ".join(parse_phrase_syntax("play " + " ".join(spelled)))
    except PhraseSyntaxError:
        return None


def _why_illegal(language: Language, phrase: str) -> str | None:
    """The plainest reason a well-formed move phrase is not legal, where one is easy to give."""
    state = language.state
    words = phrase.split()[1:]
    rank = WORD_RANKS[words[0]]
    marbles = [
        marble_id(words[i], NUMBER_WORDS.index(words[i + 1]) + 1)
        for i in range(1, len(words) - 1)
        if words[i] in COLOUR_WORDS and words[i + 1] in NUMBER_WORDS
    ]
    own = language.own
    if rank == "7" and len(words) == 7:
        a, b = NUMBER_VALUES[words[3]], NUMBER_VALUES[words[6]]
        if marbles[0] == marbles[1]:
            return "a seven splits between two different marbles"
        if a + b != 7:
            return "the two parts of a seven add up to seven"
    moving = marbles[:1] if rank == "J" else marbles
    for marble in moving:
        if marble_colour(marble) != own and not (rank == "5" and state.rules.complex):
            return f"you move only {own} marbles"
    if rank == "J" and len(marbles) == 2 and marble_colour(marbles[1]) == own:
        return "the jack swaps with a marble of another colour"
    for marble in marbles:
        position = state.marbles[marble]
        if is_home(position):
            return f"{marble_name(marble)} is at home"
        if is_safe(position) and (rank in ("4", "J") or marble_colour(marble) != own):
            return f"{marble_name(marble)} is in its safe zone"
    return None
