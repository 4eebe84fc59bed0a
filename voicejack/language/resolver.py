"""From what was heard (or typed) to exactly one Resolution.

The order of business for one utterance:

1. Normalise every hypothesis (the best text and the n-best alternatives).
2. An exact hit of the best text on a form of the language wins, the
   pending question's answers first, then commands, then moves. Words
   with two readings (a bare "one" that is both the value "1 step" and
   choice 1, "two" that is option 2 and the card two) are asked about; a
   bare number that can only be a choice's number is confirmed. No move is
   ever played from words that could mean another.
3. Otherwise refuse plainly what can be recognised as a mistake: not your
   turn, a card not in hand, a whole move phrase that is not legal (with
   the engine's reason), burning when a card can move, an option number
   that does not exist.
4. Otherwise score every form by word edit distance over all hypotheses
   and take the best only when it is clearly best; when several are close,
   ask. Never an illegal move, never a guess.

A move that was not heard exactly, or heard with low confidence, is
confirmed ("..., yes or no?"); so is one that sends home the player's own
or partner's marble, and so are quit and leave.

The forms of a position are built once per resolver and position, seat and
pending question (``Resolver.language``): a table builds the grammar, then
resolves what it heard, often several times over one turn.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from voicejack.engine import (
    GameState,
    Move,
    MoveKind,
    legal_moves,
    marble_colour,
    mover_colour,
    play,
)
from voicejack.engine import events as ev
from voicejack.language import prompts
from voicejack.language.dialog import NarratorWording, QuestionBuilder, Wording
from voicejack.language.forms import (
    TIER_MOVE,
    Entry,
    MovesTarget,
    Pick,
    Target,
    answer_entries,
    command_entries,
    move_entries,
    numbers_are_values,
    refused_forms,
)
from voicejack.hearing import Grammar, Heard
from voicejack.language.match import CLEAR_MARGIN, allowed_cost, word_distance
from voicejack.language.normalise import Key, Normalised, key_of, normalise
from voicejack.language.refusals import not_a_choice, refusal
from voicejack.language.resolution import (
    ANSWER_ONLY,
    CONFIRMED_WHEN_UNSURE,
    LIST_ONLY,
    ONLY_SPEAKS,
    Ask,
    Choice,
    Command,
    CommandName,
    Confirm,
    ConfirmPolicy,
    Dialog,
    LanguageSettings,
    NotUnderstood,
    NotUnderstoodCode,
    Resolution,
    Topic,
)
from voicejack.language.words import CARD_WORDS, number_word

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

    def __init__(self, state: GameState, seat: str, dialog: Dialog = None, wording: Wording | None = None) -> None:
        self.state = state
        self.seat = seat
        self.acting = seat == state.turn and state.winner is None
        moves, base = _base(state, seat, self.acting)
        self.moves: list[Move] = moves
        self.dialog = self._still_valid(dialog)
        self.builder = QuestionBuilder(state, seat, wording)
        self._grammars: dict[bool, Grammar] = {}
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

    def grammar(self, listing: bool = False) -> Grammar:
        """What a recogniser listens for; ``listing``: a list is being read out, so "next" and "previous" too."""
        if listing not in self._grammars:
            spoken = [entry for entry in self.entries if entry.spoken
                      and (self.dialog is not None or not _only_for(ANSWER_ONLY, entry.target))
                      and (listing or not _only_for(LIST_ONLY, entry.target))]
            forms = {entry.form for entry in spoken}
            state = self.state
            refused: set[str] = set()
            if self.dialog is None and state.winner is None and self.seat in state.rules.seats:
                # Heard, these are refused with the engine's reason (refusals.refusal), never matched to a move;
                # out of turn every move of the hand is, with "not your turn".
                refused.update(form for form in refused_forms(state, self.seat, self.moves)
                               if key_of(form) not in self.by_key)
            commands = {entry.form: entry.target for entry in spoken if isinstance(entry.target, Command)}
            meanings: dict[str, set[object]] = {form: {_REFUSED} for form in refused}
            for entry in spoken:
                # A card named alone by voice is confirmed where the move said in full is played: not one meaning
                # for Grammar.complete, so a recogniser waits to hear whether the player goes on.
                meanings.setdefault(entry.form, set()).add((entry.target, entry.vague or entry.card_alone))
            self._grammars[listing] = Grammar(tuple(sorted(forms | refused)), frozenset(commands),
                                              frozenset(form for form, command in commands.items()
                                                        if command.name in CONFIRMED_WHEN_UNSURE),
                                              frozenset(refused), complete_prefixes(meanings),
                                              frozenset(form for form, command in commands.items()
                                                        if command.name in ONLY_SPEAKS),
                                              answer_groups(commands),
                                              asking_forms(meanings) if self.dialog is None else frozenset(),
                                              move_groups(meanings))
        return self._grammars[listing]


_REFUSED = object()  # the meaning of a form heard only to be refused


def answer_groups(commands: dict[str, Command]) -> tuple[frozenset[str], ...]:
    """The forms of each answer among ``commands`` ("yes", "yeah" ...; "no", "nope"), one set per answer
    (Grammar.answers)."""
    groups: dict[CommandName, set[str]] = {}
    for form, command in commands.items():
        if command.name in ANSWER_ONLY:
            groups.setdefault(command.name, set()).add(form)
    return tuple(frozenset(forms) for _, forms in sorted(groups.items(), key=lambda pair: pair[0].value))


def move_groups(meanings: dict[str, set[object]]) -> tuple[frozenset[str], ...]:
    """The forms that name one move and nothing else, one set per move (Grammar.moves)."""
    groups: dict[object, set[str]] = {}
    for form, meaning in meanings.items():
        if len(meaning) != 1:
            continue
        (only,) = meaning
        if isinstance(only, tuple) and isinstance(only[0], MovesTarget) and len(only[0].moves) == 1:
            groups.setdefault(next(iter(only[0].moves)), set()).add(form)
    return tuple(frozenset(forms) for forms in groups.values())


def asking_forms(meanings: dict[str, set[object]]) -> frozenset[str]:
    """The forms whose only meaning is several moves, answered with a question (Grammar.asks)."""
    def asks(meaning: object) -> bool:
        return isinstance(meaning, tuple) and isinstance(meaning[0], MovesTarget) and len(meaning[0].moves) > 1

    return frozenset(form for form, meaning in meanings.items() if all(asks(m) for m in meaning))


def complete_prefixes(meanings: dict[str, set[object]]) -> frozenset[str]:
    """The forms that longer forms begin, every one of them meaning the same (Grammar.complete)."""
    longer: dict[str, list[str]] = {}
    for form in meanings:
        words = form.split()
        for n in range(1, len(words)):
            longer.setdefault(" ".join(words[:n]), []).append(form)
    return frozenset(form for form, meaning in meanings.items()
                     if form in longer and all(meanings[other] == meaning for other in longer[form]))


def _only_for(names: frozenset[CommandName], target: object) -> bool:
    return isinstance(target, Command) and target.name in names


Describe = Callable[[GameState, Move, str], str]

#: Languages (forms of one position, seat and pending question) a resolver keeps.
LANGUAGE_CACHE_SIZE = 8


class Resolver:
    """Resolves utterances with one set of settings (confirmation policy, confidence thresholds, wording).

    ``describe(state, move, listener)`` words a move for its confirmation
    prompt; by default the narrator's description, brief or full as
    ``settings.brief`` says; the details of question choices follow the same setting.
    """

    def __init__(self, settings: LanguageSettings | None = None, describe: Describe | None = None) -> None:
        self.settings = settings or LanguageSettings()
        self.wording: Wording = NarratorWording(self.settings.brief)
        self.describe: Describe = describe or self.wording.option
        self._languages: OrderedDict[tuple[object, ...], Language] = OrderedDict()
        self._lock = threading.Lock()

    # Public API ------------------------------------------------------------

    def language(self, state: GameState, seat: str, dialog: Dialog = None) -> Language:
        """The forms in play, built once per position, seat and pending question.

        The key holds the state object itself (kept alive by the cached
        Language, so its id cannot be reused) and its contents, since states
        are changed in place by the table.
        """
        key = (id(state), _fingerprint(state, seat), dialog)
        with self._lock:
            found = self._languages.get(key)
            if found is not None:
                self._languages.move_to_end(key)
                return found
        built = Language(state, seat, dialog, self.wording)
        with self._lock:
            self._languages[key] = built
            while len(self._languages) > LANGUAGE_CACHE_SIZE:
                self._languages.popitem(last=False)
        return built

    def clear_cache(self) -> None:
        with self._lock:
            self._languages.clear()

    def phrase_set(self, state: GameState, seat: str, dialog: Dialog = None, listing: bool = False) -> Grammar:
        """Everything a recogniser should listen for now, for ``seat`` (``listing``: a list is being read out)."""
        return self.language(state, seat, dialog).grammar(listing)

    def resolve(self, state: GameState, seat: str, heard: Heard | str, dialog: Dialog = None) -> Resolution:
        """What the game should do on hearing ``heard`` from ``seat`` (a plain string counts as typed)."""
        if isinstance(heard, str):
            heard = Heard(heard, typed=True)
        result = self._resolve(state, seat, heard, dialog)
        if (isinstance(dialog, Confirm) and not heard.typed and isinstance(result, Move)
                and result != dialog.move):
            # While the game waits for a yes or a no, a move said instead is asked about, not carried out:
            # table talk said at that moment was heard as a move of its own ("nice one" as "ace one",
            # benchmarks/asr.py --parts held-out-asked), and the player can still say yes to it.
            return self._confirmation(state, seat, result)
        return result

    def _resolve(self, state: GameState, seat: str, heard: Heard, dialog: Dialog) -> Resolution:
        language = self.language(state, seat, dialog)
        texts = [heard.text] + [alt for alt in dict.fromkeys(heard.alternatives) if alt != heard.text]
        hypotheses = [normalise(text, heard.typed) for text in texts]
        primary = hypotheses[0]
        if not primary.primary:
            if primary.raw_words:
                return NotUnderstood(prompts.say_more(), NotUnderstoodCode.EMPTY)
            # Speech with no words is speech the recogniser turned down: the player did say something.
            return NotUnderstood(prompts.empty() if heard.typed else prompts.unknown(""), NotUnderstoodCode.EMPTY)
        low_confidence = False
        confidences = _meaning_confidences(heard, primary)
        if confidences:
            if sum(confidences) / len(confidences) < self.settings.reject_confidence:
                return NotUnderstood(prompts.unclear(), NotUnderstoodCode.UNCLEAR)
            low_confidence = min(confidences) < self.settings.low_confidence

        hits = language.by_key.get(primary.primary, [])
        if hits:
            return self._exact(language, hits, hypotheses, low_confidence, heard.text, heard.doubted, heard.typed)

        refused = refusal(language, primary.primary)
        if refused is not None:
            return refused

        scores = self._score(language, hypotheses)
        if not scores:
            return NotUnderstood(prompts.unknown(heard.text), NotUnderstoodCode.UNKNOWN)
        best = min(scores.values())
        close = [target for target, cost in scores.items() if cost < best + CLEAR_MARGIN]
        if len(close) == 1:
            return self._finish(language, close[0], certain=False)
        return self._ambiguous(language, close, heard.text)

    # Exact hits -------------------------------------------------------------

    def _exact(self, language: Language, hits: list[Entry], hypotheses: Sequence[Normalised],
               low_confidence: bool, text: str, doubted: bool, typed: bool = False) -> Resolution:
        if _says_a_unit(hypotheses[0]):
            # "one step" is the value 1 step, never choice one (the unit word is a filler in the key)
            hits = [entry for entry in hits if not entry.option_reading]
            if not hits:
                refused = refusal(language, hypotheses[0].primary)
                return refused or NotUnderstood(prompts.unknown(text), NotUnderstoodCode.UNKNOWN)
        readings = _readings(language, hits)
        if len(readings) > 1:
            return self._two_readings(language, readings, hypotheses[0].primary)
        tier = min(entry.tier for entry in hits)
        best = list(dict.fromkeys(entry.target for entry in hits if entry.tier == tier))
        if len(best) > 1:
            return self._ambiguous(language, best, text, certain=not low_confidence)
        target = best[0]
        chosen = [entry for entry in hits if entry.target == target and entry.tier == tier]
        if isinstance(target, Pick) and all(entry.option_reading for entry in chosen):
            return self._option_only(language, target, hypotheses[0].primary)
        # A card named alone by voice is one short word to go on ("ace" and "eight" differ in their last sound):
        # its move is confirmed, where typed it is played as the player's guide says.
        vague = any(entry.vague or (entry.card_alone and not typed) for entry in chosen)
        if isinstance(target, Command) and self.settings.refuse_doubted_commands and _another_reading(
                language, hypotheses[1:], target):
            return NotUnderstood(prompts.unclear(), NotUnderstoodCode.UNCLEAR)
        if isinstance(target, Command) and doubted:
            # The recogniser would rather ask: a command it doubts is asked about, or refused where asking
            # makes no sense ("did you say yes?").
            if target.name not in CONFIRMED_WHEN_UNSURE:
                return NotUnderstood(prompts.unclear(), NotUnderstoodCode.UNCLEAR)
            if target.name not in self.settings.destructive_commands:
                return Confirm(target, prompts.confirm_heard_command(text))
        certain = not (doubted or low_confidence or vague
                       or _alternatives_disagree(language, hypotheses[1:], target))
        return self._finish(language, target, certain)

    def _option_only(self, language: Language, pick: Pick, words: Key) -> Resolution:
        """A bare number that can only be a choice's number: it may still have been meant as a value.

        Where the values are numbers ("Which card?", the 7's steps) it names
        none of them and is refused; elsewhere the choice is confirmed.
        """
        dialog = language.dialog
        assert isinstance(dialog, Ask)
        if numbers_are_values(dialog):
            return not_a_choice(words, dialog)
        then = dialog.choices[pick.index].then
        if isinstance(then, Ask):
            return then
        description = self.describe(language.state, then, language.seat)
        return Confirm(then, prompts.confirm_option(pick.index + 1, description), back=dialog)

    def _two_readings(self, language: Language, readings: list[tuple[Entry, bool]], key: Key) -> Resolution:
        """The same words mean different things: ask which was meant (a command is simply carried out)."""
        dialog = language.dialog
        for entry, _ in readings:
            if isinstance(entry.target, Command):
                if entry.target.name is CommandName.YES and isinstance(dialog, Confirm):
                    return dialog  # "yes" that could be something else: ask the confirmation again
                return self._finish(language, entry.target, certain=False)
        choices: list[Choice] = []
        for entry, by_number in readings:
            target = entry.target
            if isinstance(target, Pick):
                assert isinstance(dialog, Ask)
                choice = dialog.choices[target.index]
                if by_number:
                    number = target.index + 1
                    answers = (f"option {number_word(number)}",) + tuple(
                        form for form in choice.answers if key_of(form) != key)
                    label = prompts.the(choice.label) if dialog.topic is Topic.CARD else choice.label
                    choices.append(Choice(prompts.option_label(number, label), choice.then, answers))
                else:
                    label = prompts.the(choice.label) if dialog.topic is Topic.CARD else choice.label
                    choices.append(Choice(label, choice.then, choice.answers))
            elif isinstance(target, MovesTarget):
                cards = {move.card for move in target.moves}
                label = prompts.card_label(next(iter(cards))) if len(cards) == 1 else entry.form
                choices.append(Choice(label, language.builder.build(target.moves), (entry.form,)))
        question = prompts.ask_meaning([choice.label for choice in choices])
        return Ask(question, tuple(choices), Topic.MEANING, numbered=False)

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
            if isinstance(dialog, Confirm) and target.name is CommandName.YES:
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
            return self._confirmation(language.state, language.seat, move)
        return move

    def _confirmation(self, state: GameState, seat: str, move: Move) -> Confirm:
        """The yes-or-no question that asks ``seat`` before ``move`` is played."""
        return Confirm(move, prompts.confirm_move(self.describe(state, move, seat)))

    def _ambiguous(self, language: Language, targets: Sequence[Target], text: str, certain: bool = False) -> Resolution:
        """Several meanings are equally close: ask between them, never guess."""
        dialog = language.dialog
        if all(isinstance(t, Pick) for t in targets) and isinstance(dialog, Ask):
            picks = sorted(t.index for t in targets if isinstance(t, Pick))
            return replace(dialog, choices=tuple(dialog.choices[i] for i in picks))
        move_sets: list[frozenset[Move]] = []
        for target in targets:
            if isinstance(target, MovesTarget):
                move_sets.append(target.moves)
            elif isinstance(target, Pick) and isinstance(dialog, Ask):
                then = dialog.choices[target.index].then
                move_sets.append(frozenset((then,)) if isinstance(then, Move) else then.moves())
            else:
                return NotUnderstood(prompts.unknown(text), NotUnderstoodCode.UNKNOWN)
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


def phrase_set(state: GameState, seat: str, dialog: Dialog = None, listing: bool = False) -> Grammar:
    """See Resolver.phrase_set."""
    return _DEFAULT.phrase_set(state, seat, dialog, listing)


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


def _another_reading(language: Language, alternatives: Iterable[Normalised], target: Target) -> bool:
    """Does an n-best alternative say anything but ``target`` exactly (another command, a move, an answer)?"""
    return any(other != target for alternative in alternatives for other in _exact_targets(language, alternative))


_UNITS = frozenset({"step", "steps"})


def _says_a_unit(hypothesis: Normalised) -> bool:
    return any(word.lower().strip(".,!?") in _UNITS for word in hypothesis.raw_words)


def _meaning(language: Language, target: Target) -> frozenset[Move] | Command:
    if isinstance(target, Pick):
        assert isinstance(language.dialog, Ask)
        then = language.dialog.choices[target.index].then
        return frozenset((then,)) if isinstance(then, Move) else then.moves()
    if isinstance(target, MovesTarget):
        return target.moves
    return target


def _differ(one: frozenset[Move] | Command, other: frozenset[Move] | Command) -> bool:
    """Two readings mean different things: a command and anything else, or move sets neither of which holds the other.

    A question's answer inside what the same words would mean afresh ("nine",
    asked which card after "red one") is the same meaning, narrowed by the question.
    """
    if isinstance(one, Command) or isinstance(other, Command):
        return one != other
    return not (one <= other or other <= one)


def _readings(language: Language, hits: list[Entry]) -> list[tuple[Entry, bool]]:
    """The different meanings of one exact key, best tier first: (an entry meaning it, read as a choice number only?).

    Only a question's answer or a command can make a second reading; move
    forms that share a key are told apart by the card-first questions.
    """
    ordered = sorted(hits, key=lambda entry: entry.tier)
    readings: list[tuple[Entry, bool, frozenset[Move] | Command]] = []
    for entry in ordered:
        meaning = _meaning(language, entry.target)
        by_number = all(other.option_reading for other in hits if other.target == entry.target)
        if all(_differ(meaning, kept) for _, _, kept in readings):
            readings.append((entry, by_number, meaning))
    if len(readings) > 1 and not any(isinstance(entry.target, (Pick, Command)) for entry, _, _ in readings):
        return [(readings[0][0], readings[0][1])]
    return [(entry, by_number) for entry, by_number, _ in readings]
