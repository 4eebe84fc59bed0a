"""The check's rules: what pocketsphinx's hearing of one utterance comes to, weighed against the word model's,
Whisper's and Moonshine's (whisper_backend.py runs the models; this module only decides).

``decide`` is the one entry point. It is handed the recognisers' results as it asks for them, Whisper's free
decoding and its scoring of the shortlist only when an earlier rule has not already settled the utterance: the
recogniser gives it its models' work, the benchmark's replay (benchmarks/asr_replay.py) a recording's, so a
replayed rule is the game's own. Every threshold below was chosen on development parts and judged on fresh
check parts; each comment names the round of models/README.md that measured it.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import replace

from voicejack.hearing import Grammar, Heard
from voicejack.speech.acceptance import Thresholds, heard_as, settle
from voicejack.speech.judging import Evidence
from voicejack.speech.transcripts import Scored
from voicejack.speech.word_head import Spotted

# Speech standing less than this far (dB) above the background counts as a loud room: pocketsphinx's
# confident results there were too often wrong, so Whisper checks them (tuned on benchmarks/asr.py's tuning
# part only). With the word model the check is trusted further: at 28 dB it caught the last sure wrong moves
# of the tuning part in the reverberant room and with music, where without it Whisper alone doubted more
# right moves than it saved (models/README.md, nineteenth round).
LOUD_ROOM_DB = 26.0
HEAD_LOUD_ROOM_DB = 28.0
# When the word model's first sentence is pocketsphinx's move or answer of two words or more, ahead of its
# second by this much (log-likelihood), the shortlist is not scored: on the tuning part, with word models that
# never heard the voice, the check settled every such utterance as pocketsphinx had heard it. One word alone
# ("four", a card with one move) is still weighed: a held-out voice's "help" was heard as "four" by both
# (models/README.md, nineteenth round).
HEAD_AGREES_MARGIN = 4.0
# A word model whose first sentence fits the audio this far below its best path (per second) and leads by less
# than HEAD_AGREES_MARGIN is not evidence for that sentence: a sure pocketsphinx reading it ranks first is
# checked in full all the same, and it does not count as ranking a move first (``ranked_first_by_none``). On a
# check part a flite voice's "play five green four" with music was heard surely as "play five green two", the
# word model first by 2.1 at -8.5 a second, and carried out unchecked. Anywhere from -5 to -8 the development
# recordings (11,395 utterances) changed in that utterance alone (models/README.md, thirty-eighth round).
HEAD_WEAK_FIT = -6.0
# When the word model is this sure of a sentence on its own (first by HEAD_SURE_MARGIN, and within
# HEAD_SURE_FIT per second of the best path through the audio), it is carried out as the word model heard it:
# on the tuning part, with word models that never heard the voice, that added no wrong hearing and carried out
# no table talk, where the acceptance model, trusting Whisper's forced scores, still asked or refused many of
# these (models/README.md, twentieth round). A command so spotted is obeyed only when Whisper's free decoding
# has no more words than the command or the utterance lasts at most COMMAND_SECONDS: table talk the word model
# takes for a command is a longer sentence ("hang on" for "cancel"; on the tuning part the shortest such line
# lasted 1.14 s; among other talkers Whisper's free decoding holds their words too, so the length decides).
HEAD_SURE_MARGIN = 8.0
HEAD_SURE_FIT = -1.0
COMMAND_SECONDS = 1.0
# When the check finds nothing to act on, a sentence that only asks a question (Grammar.asks: "play ace", a
# card named alone where it has several moves) is asked about when the word model ranks it first by
# ASKS_MARGIN, within ASKS_FIT a second of the best path, and has two words or more: heard wrongly it costs a
# question the player cancels. Chosen on the development parts' card-first utterances (models/README.md,
# thirty-sixth round), where most such sentences refused in the reverberant room were ranked first that way,
# and a line of table talk rarely was.
ASKS_MARGIN = 3.0
ASKS_FIT = -3.0
# A command the word model ranks first by AGREED_MARGIN (within HEAD_SURE_FIT), which Whisper's scoring of
# the shortlist (with Moonshine's, when there) also ranks first, is obeyed in an utterance of up to
# AGREED_COMMAND_SECONDS, whatever Whisper's free decoding wrote, unless that decoding holds the command inside
# a longer sentence ("repeat after me"): on the held-out voices many commands were refused with both ranking
# them far ahead, since pocketsphinx had heard nothing and Whisper's own decoding was nonsense ("the heat." for
# "repeat"). Two models agreeing need less of a lead than the word model alone: chosen on held-out parts
# other than those it was judged on (models/README.md, twenty-second and twenty-third rounds). An answer so agreed
# on (Grammar.answers) is taken only when Whisper's own decoding has no more words than it, as in agreed_answer:
# "who is winning", said while a move was being confirmed, was carried out as "yes" (thirty-fourth round).
AGREED_MARGIN = 4.0
AGREED_COMMAND_SECONDS = 2.0
# In a loud room (speech less than HEAD_LOUD_ROOM_DB over it) a command Moonshine's scoring on its own also
# ranks first, by UNANIMOUS_SECOND_MARGIN, needs a lead of only UNANIMOUS_MARGIN within UNANIMOUS_FIT, or, said
# in three words or more, UNANIMOUS_LONG_MARGIN whatever its fit (reverberation smears a longer command, so that
# "whose turn is it" fitted the audio 5-9 a second below its best path while far ahead of anything else): the
# held-out voices' short commands in the reverberant room and among talkers were refused with all three
# recognisers ranking them first, but by less than AGREED_MARGIN. In a quiet room Whisper's own decoding is
# trusted instead, and table talk it wrote down ("hello there") was taken for a command there (models/README.md,
# twenty-fourth round).
UNANIMOUS_MARGIN = 3.0
UNANIMOUS_FIT = -3.0
UNANIMOUS_LONG_MARGIN = 10.0
UNANIMOUS_SECOND_MARGIN = 4.0
# A move (or an answer) of two words or more that the word model ranks first by HEAD_AGREES_MARGIN, and that
# Whisper's scoring (with Moonshine's) and Moonshine's scoring on its own both rank first by UNANIMOUS_MOVE_LEAD,
# is carried out: where pocketsphinx had misheard it, the acceptance model, which weighs pocketsphinx's reading
# too, asked about it or refused it. On the held-out development parts the three never put a wrong move first
# that way (models/README.md, twenty-sixth round).
UNANIMOUS_MOVE_LEAD = 1.0
# In a loud room, a command that only makes the game read something out (Grammar.read_out: "help", "repeat")
# is obeyed when Whisper's scoring (with Moonshine's) ranks it first by READ_OUT_LEAD and Moonshine's alone by
# READ_OUT_SECOND_LEAD, Moonshine finds it fits the audio within READ_OUT_FIT a token, and the word model puts
# it no more than READ_OUT_HEAD_BEHIND below its own first: obeyed wrongly, such a command costs a moment of
# speech the player can stop. The held-out voices' "help" and "repeat" in the reverberant room and among
# talkers were refused with both scorers far ahead, where the word model, thrown by the reverberation, ranked
# something else first (models/README.md, twenty-eighth round).
# Never over a move pocketsphinx heard surely: in the reverberant room a held-out voice's "burn eight", heard
# by pocketsphinx word for word, was obeyed as "repeat" (thirty-fourth round).
READ_OUT_LEAD = 2.0
READ_OUT_SECOND_LEAD = 4.0
READ_OUT_FIT = -3.0
READ_OUT_HEAD_BEHIND = 10.0
# pocketsphinx's own reading of a move or an answer (two words or more) that Whisper's scoring (with
# Moonshine's) and Moonshine's alone both rank first by READING_LEAD, and that the word model puts no more than
# READ_OUT_HEAD_BEHIND below its first, is carried out: three of the four recognisers hearing one sentence,
# where the word model alone heard another ("play seven red two six" for "play seven red one one red two six",
# a split it could not follow in the room). Where the word model heard the move said and put the three's
# sentence far behind, they were wrong ("three red one" for "play eight red one"; twenty-eighth round).
READING_LEAD = 2.0
# In a loud room, the word model's being sure of a sentence by itself is not acted on when pocketsphinx heard
# another move surely and Whisper's scoring (with Moonshine's) and Moonshine's alone both rank pocketsphinx's
# move first by OUTVOTED_LEAD: the rest of the check decides, mostly by asking. In the reverberant room the
# word model alone was sure of "play queen blue four" where the three others heard the king said
# (twenty-ninth round). Such a disagreement costs the shortlist's scoring, which the word model's being sure
# spares, so a quiet room, where its cost would fall on the moves that must come quickest, is left as it was.
OUTVOTED_LEAD = 3.0
# While a question is open, an answer (Grammar.answers: "yes", "yeah", "yep" ... or "no", "nope") that the word
# model ranks first, and that Whisper's scoring (with Moonshine's) and Moonshine's alone both rank first by
# ANSWER_AGREED_LEAD, is taken, every form of one answer counting as that answer, when Whisper's free decoding
# has no more words than it: in noise the three often put different forms of one answer first (the word model
# "yeah", Whisper "yes"), or split the word model's lead among them, and an answer all three agreed on was
# refused. Without the last condition table talk said while a move was being confirmed ("pass me the salt
# please") was taken for "yes", since a yes-or-no question leaves the three little else to rank first
# (models/README.md, thirty-third round).
ANSWER_AGREED_LEAD = 3.0
# A move's short form (at most SHORT_FORM_WORDS words, not beginning with the card's verb, one of MOVE_VERBS)
# that pocketsphinx did not hear but the rest of the check settles on is confirmed before it is played: with the
# voices nothing was tuned on, table talk ("nice one") was played as "ace one" (thirty-ninth round).
SHORT_FORM_WORDS = 2
MOVE_VERBS = frozenset({"play", "burn"})
# An answer the acceptance model settles on is refused, so the question stays open, when the word model ranks a
# form of the other answer first and pocketsphinx heard no form of this one; a "no" (one of NO_FORMS) also when
# Whisper's scoring or Moonshine's ranks a yes first. In the reverberant room a "yes" was settled as "no" 16
# times in 1,000 development answers (pico and flite voices): taken, such a "no" turns down the move the player
# meant. Among other talkers a "no" was settled as "yeah" 4 times in 100 on this round's first check parts
# (`--seed 380`, `500`, development parts since), with Whisper's and Moonshine's scoring ranking "yeah" first:
# taken, that "yes" plays a move the player turned down. The rule refuses 13 of the 16 and 3 of the 4, and
# 12 right development answers of 1,450 (refusing any answer one of the three ranked the other first would have
# cost 29; models/README.md, forty-first round).
NO_FORMS = frozenset({"no", "nope"})



def decide(heard: Heard, spotted: Spotted | None, free_words: Callable[[], str],
           scores: Callable[[], tuple[Scored, Scored | None]], evidence: Evidence | None, over_floor_db: float,
           grammar: Grammar, loud_room_db: float, thresholds: Thresholds,
           weights: Sequence[float]) -> tuple[Heard, tuple[str, ...]]:
    """The check's verdict on pocketsphinx's ``heard``, and the rules that decided it, in order.

    The recogniser calls this with its models; benchmarks/asr_replay.py with what a recording holds, so that a
    replay decides exactly as the game does. Whichever rule settles on a move's short form that pocketsphinx did
    not hear, it is confirmed unless Whisper's own decoding wrote it: table talk sounds like one ("nice one"
    like "ace one", "hang on" like "bring out"), and every scorer may rank it first (models/README.md,
    thirty-ninth and fortieth rounds). So is a move that stops short of the longer one pocketsphinx surely
    heard (``stops_short``): every other scorer heard "play seven green four six" as "play seven green four"
    and "forces" (fortieth round)."""
    decoded: list[str] = []

    def free_once() -> str:  # Whisper's free decoding is costly: _verdict may already have asked for it
        if not decoded:
            decoded.append(free_words())
        return decoded[0]

    checked, rules = _verdict(heard, spotted, free_once, scores, evidence, over_floor_db, grammar, loud_room_db,
                              thresholds, weights)
    if checked.text and not checked.doubted:
        if short_form_unheard(checked.text, heard, grammar.moves) and free_once() != checked.text:
            return replace(checked, doubted=True), (*rules, "confirmed_short")
        if stops_short(checked.text, heard, grammar.moves, grammar.obeyed):
            return replace(checked, doubted=True), (*rules, "confirmed_stops_short")
    return checked, rules


def _verdict(heard: Heard, spotted: Spotted | None, free_words: Callable[[], str],
             scores: Callable[[], tuple[Scored, Scored | None]], evidence: Evidence | None, over_floor_db: float,
             grammar: Grammar, loud_room_db: float, thresholds: Thresholds,
             weights: Sequence[float]) -> tuple[Heard, tuple[str, ...]]:
    """``decide`` by the rules of this module, tried in turn, each step asking only for what it needs:
    ``free_words`` (Whisper's free decoding, normalised) and ``scores`` (Whisper's scoring of the shortlist, with
    Moonshine's averaged in, and Moonshine's alone or None) are called at most once each, and not at all when an
    earlier rule settles it."""
    obeyed = grammar.obeyed
    if spotted is not None and word_model_agrees(heard, spotted, obeyed):
        # Settled as pocketsphinx heard it, whatever Whisper's free decoding would say: it is not run.
        return sure(heard), ("head_agreed",)
    free = free_words()
    if free == heard.text and sure_reading(heard):
        # Two recognisers heard the same sentence, each on its own: scoring the shortlist (most of a check's
        # time) would only confirm it.
        return heard, ("agreed",)
    spotted_sure = word_model_sure(spotted, free, obeyed, grammar.moves) if spotted is not None else ""
    contested = over_floor_db < loud_room_db and disputes(heard, spotted_sure, obeyed)
    if spotted_sure and not contested:
        return heard_as(spotted_sure, 0.95, (), heard), ("head_sure",)
    scored, opinion = scores()
    rules: tuple[str, ...] = ()
    if spotted_sure:
        if not word_model_outvoted(heard, spotted_sure, scored, opinion, obeyed):
            return heard_as(spotted_sure, 0.95, (), heard), ("head_sure",)
        rules = ("head_outvoted",)
    if spotted is not None:
        # In this order of precedence; each is a pure function of the scores, so all are simply worked out.
        found = (("command_agreed", agreed_command(spotted, scored, free, obeyed, opinion, over_floor_db,
                                                   grammar.answers)),
                 ("answer_agreed", agreed_answer(spotted, scored, opinion, free, grammar.answers)),
                 ("read_out_obeyed", "" if heard_a_move_surely(heard, obeyed) else
                  read_out_command(spotted, scored, opinion, free, grammar.read_out, over_floor_db)),
                 ("move_unanimous", unanimous_move(spotted, scored, opinion, obeyed, grammar.refused)),
                 ("reading_agreed", agreed_reading(heard, spotted, scored, opinion, obeyed, grammar.refused)))
        for rule, sentence in found:
            if sentence:
                return heard_as(sentence, 0.95, (), heard), (*rules, rule)
    settled = settle(heard, evidence, scored, over_floor_db, obeyed, thresholds, weights,
                     confirmed=grammar.confirmed, spotted=spotted)
    if answer_disputed(settled.text, heard, spotted, (scored, opinion), grammar.answers):
        return Heard("", (), (), word_levels=heard.word_levels), (*rules, "settled", "answer_disputed")
    voter = None if spotted is None or word_model_weak(spotted, grammar.moves) else spotted
    if settled.text and spotted is not None and ranked_first_by_none(settled.text, (voter, scored, opinion),
                                                                       grammar.moves):
        # A move the acceptance model carries out on pocketsphinx's word, the other three ranking another move
        # first (a weak word model not counting), is confirmed: on fresh check parts such moves were cards and
        # marbles heard as their neighbours ("play two green four" for "play four green four"; models/README.md,
        # thirty-seventh round).
        return replace(settled, doubted=True), (*rules, "settled", "confirmed_alone")
    if not settled.text and spotted is not None:
        # Nothing to act on; what the word model is sure enough of to ask about is asked about instead.
        for rule, sentence in (("start_asked", word_model_sure_of_start(spotted, obeyed, grammar.refused)),
                               ("question_asked", word_model_asks(spotted, grammar.asks))):
            if sentence:
                return replace(heard_as(sentence, 0.5, (), heard), doubted=True), (*rules, "settled", rule)
    return settled, (*rules, "settled")


def with_untaught_lead(lead: str, heard: Heard, checked: Heard, phrases: Sequence[str],
                       obeyed: frozenset[str] = frozenset()) -> Heard:
    """The check's hearing ``checked`` of ``heard``, with ``lead`` (the words pocketsphinx heard in front that
    the word model was never taught) as pocketsphinx heard them. When what the check kept after them is no
    sentence of ``phrases`` that way, or a single word pocketsphinx did not hear that is no command (the word
    model hears the start of "jackaroo" as "jack"), only ``lead`` is left: a wake word with only the room
    after it."""
    size = len(lead.split())
    rest = checked.text[len(lead):].strip() if checked.text == lead or checked.text.startswith(f"{lead} ") \
        else checked.text
    said = heard.word_confidences[:size]
    if rest and f"{lead} {rest}" in phrases and (checked.text == heard.text or len(rest.split()) >= 2
                                                 or rest in obeyed):
        text = f"{lead} {rest}"
        count = len(rest.split())
        rest_confidences = checked.word_confidences[-count:] if checked.word_confidences else ()
        alternatives = tuple(a if a.startswith(f"{lead} ") else f"{lead} {a}" for a in checked.alternatives)
        levels = heard.word_levels if text == heard.text else ()
        return replace(checked, text=text, word_confidences=said + rest_confidences if said else (),
                       alternatives=alternatives, word_levels=levels)
    levels = heard.word_levels[:size] if len(heard.word_levels) == len(heard.text.split()) else ()
    return Heard(lead, said, (), word_levels=levels)


def needs_second_pass(heard: Heard, speech_over_floor_db: float, loud_room_db: float = LOUD_ROOM_DB,
                      obeyed: frozenset[str] = frozenset(), refused: frozenset[str] = frozenset()) -> bool:
    """Whisper looks again when the room is loud, pocketsphinx was unsure or heard alternatives, or it heard a
    command (one of ``obeyed``) or a move the game would refuse (one of ``refused``)."""
    if speech_over_floor_db < loud_room_db or heard.text in obeyed or heard.text in refused:
        return True
    return not sure_reading(heard)


def word_model_agrees(heard: Heard, spotted: Spotted, obeyed: frozenset[str] = frozenset()) -> bool:
    """The word model ranks pocketsphinx's sentence first by HEAD_AGREES_MARGIN, and it is a move or an
    answer of two words or more: a command (one of ``obeyed``) is carried out the moment it is heard, so it
    is always weighed, and so is a single word."""
    return (len(heard.text.split()) >= 2 and heard.text not in obeyed and bool(spotted.ranked)
            and spotted.ranked[0][0] == heard.text and spotted.margin(heard.text) >= HEAD_AGREES_MARGIN)


def word_model_doubts(heard: Heard, spotted: Spotted, alike: Callable[[str, str], bool] = operator.eq,
                      moves: Sequence[frozenset[str]] = ()) -> bool:
    """The word model ranks another sentence before ``heard``: a sure pocketsphinx reading that needs the whole
    check after all (a sure misreading of a move, or table talk forced onto one, in a quiet room). ``alike``:
    whether two sentences are the same to the word model (WordHead.hears_alike: "jackaroo, play nine red one"
    and "play nine red one" are, since it never learnt the wake word). A weak word model (``word_model_weak``,
    ``moves`` as there) doubts whatever it ranks first."""
    return bool(spotted.ranked) and (not alike(spotted.ranked[0][0], heard.text) or word_model_weak(spotted, moves))


def word_model_weak(spotted: Spotted, moves: Sequence[frozenset[str]] = ()) -> bool:
    """The word model's first sentence fits the audio poorly (below HEAD_WEAK_FIT) and leads the sentences
    that mean something else (``moves``, Grammar.moves: the wordings of each move) by little (less than
    HEAD_AGREES_MARGIN): it heard nothing it is sure of."""
    if not spotted.ranked:
        return False
    best = spotted.ranked[0][0]
    return spotted.fit(best) < HEAD_WEAK_FIT and spotted.margin(best, wordings(best, moves)) < HEAD_AGREES_MARGIN


def word_model_sure(spotted: Spotted, free_words: str, obeyed: frozenset[str] = frozenset(),
                    moves: Sequence[frozenset[str]] = ()) -> str:
    """The sentence the word model is sure of by itself (HEAD_SURE_MARGIN, HEAD_SURE_FIT), or "": a move or
    an answer of two words or more, or a command (one of ``obeyed``) when Whisper's free decoding
    (``free_words``) has no more words than the command or the utterance lasts no longer than
    COMMAND_SECONDS. Its lead is over the sentences that mean something else (``moves``, Grammar.moves: the
    wordings of each move): in a reverberant room "play king out" lost its last word, and "play king", where
    the king can only come out, split the word model's lead with the sentence said. Of the wordings of that
    move, the one it ranks first that no other wording goes on from (the move in full) is returned."""
    if not spotted.ranked:
        return ""
    best = spotted.ranked[0][0]
    same = wordings(best, moves)
    if spotted.margin(best, same) < HEAD_SURE_MARGIN or spotted.fit(best) < HEAD_SURE_FIT:
        return ""
    if best in obeyed:
        short = len(free_words.split()) <= len(best.split()) or spotted.seconds <= COMMAND_SECONDS
        return best if short else ""
    if len(best.split()) < 2:
        return ""
    # "play king" alone, a card named by itself, would be confirmed, though the word model is sure of the move.
    return next((text for text, _ in spotted.ranked
                 if text in same and not any(other.startswith(text + " ") for other in same)), best)


def word_model_sure_of_start(spotted: Spotted, obeyed: frozenset[str] = frozenset(),
                             refused: frozenset[str] = frozenset()) -> str:
    """The word model's first sentence when its first two are a sentence and that sentence with more words on
    the end ("play ace" and "play ace out", "burn" and "burn six"), together ahead of everything else by
    HEAD_SURE_MARGIN, the first within HEAD_SURE_FIT; or "". The word model is then sure how the utterance
    began, not whether its last words were said: a far microphone in a reverberant room loses them, and a
    player naming the card first says the shorter on purpose. Neither may be a command (one of ``obeyed``) or
    a move the game refuses (``refused``). Handed over doubted, it is asked about, never carried out: the
    longer is confirmed, the shorter asks which of its moves was meant."""
    if len(spotted.ranked) < 2:
        return ""
    (first, _), (second, _) = spotted.ranked[:2]
    shorter, longer = sorted((first, second), key=len)
    if not longer.startswith(shorter + " ") or {first, second} & (obeyed | refused):
        return ""
    if spotted.margin(first, frozenset({second})) < HEAD_SURE_MARGIN or spotted.fit(first) < HEAD_SURE_FIT:
        return ""
    return first


def word_model_asks(spotted: Spotted, asks: frozenset[str]) -> str:
    """The word model's first sentence when it is one of ``asks`` (Grammar.asks: a card named alone, "play
    ace") of two words or more, ahead of the next by ASKS_MARGIN and within ASKS_FIT a second of the best path;
    or "". Heard wrongly it costs a question the player can cancel, so a smaller lead than HEAD_SURE_MARGIN
    is enough."""
    if not spotted.ranked:
        return ""
    best = spotted.ranked[0][0]
    if best not in asks or len(best.split()) < 2:
        return ""
    return best if spotted.margin(best) >= ASKS_MARGIN and spotted.fit(best) >= ASKS_FIT else ""


def heard_a_move_surely(heard: Heard, obeyed: frozenset[str] = frozenset()) -> bool:
    """pocketsphinx heard a move (or an answer: not a command, one of ``obeyed``) surely."""
    return sure_reading(heard) and heard.text not in obeyed


def disputes(heard: Heard, sentence: str, obeyed: frozenset[str] = frozenset()) -> bool:
    """pocketsphinx heard a move surely (heard_a_move_surely), and not ``sentence``."""
    return heard_a_move_surely(heard, obeyed) and heard.text != sentence


def word_model_outvoted(heard: Heard, sentence: str, scored: Scored, second: Scored | None,
                        obeyed: frozenset[str] = frozenset()) -> bool:
    """pocketsphinx's sure move ``heard``, not the word model's ``sentence`` (``disputes``), is what Whisper's
    scoring (``scored``) and Moonshine's alone (``second``) both rank first by OUTVOTED_LEAD."""
    return (disputes(heard, sentence, obeyed) and _first_by(scored, heard.text, OUTVOTED_LEAD)
            and _first_by(second, heard.text, OUTVOTED_LEAD))


def agreed_command(spotted: Spotted, scored: Scored, free_words: str, obeyed: frozenset[str],
                   second: Scored | None = None, over_floor_db: float = math.inf,
                   answers: Sequence[frozenset[str]] = ()) -> str:
    """The command (one of ``obeyed``) both the word model and Whisper's scoring rank first, the word model
    clearly (AGREED_MARGIN, HEAD_SURE_FIT), in an utterance of AGREED_COMMAND_SECONDS at most; or "" (also
    when Whisper's free decoding ``free_words`` holds the command among other words: table talk that says it,
    or, for a form of an answer (one of ``answers``), has more words than it at all).
    In a loud room (``over_floor_db``), where Moonshine's scoring on its own (``second``) ranks it first too,
    a smaller lead is enough (UNANIMOUS_MARGIN and the rest)."""
    if not spotted.ranked or not scored.ranked:
        return ""
    best = spotted.ranked[0][0]
    if best not in obeyed or scored.ranked[0][0] != best or spotted.seconds > AGREED_COMMAND_SECONDS:
        return ""
    if any(best in forms for forms in answers) and wrote_more_than(free_words, best):
        return ""
    margin, fit = spotted.margin(best), spotted.fit(best)
    clear = margin >= AGREED_MARGIN and fit >= HEAD_SURE_FIT
    if not clear and over_floor_db < HEAD_LOUD_ROOM_DB and _first_by(second, best, UNANIMOUS_SECOND_MARGIN):
        clear = ((margin >= UNANIMOUS_MARGIN and fit >= UNANIMOUS_FIT)
                 or (len(best.split()) >= 3 and margin >= UNANIMOUS_LONG_MARGIN))
    return best if clear and not said_among_other_words(best, free_words) else ""


def wrote_more_than(free_words: str, answer: str) -> bool:
    """Whisper's free decoding (``free_words``) has more words than ``answer``: a yes-or-no question leaves the
    scorers little else to rank first, so table talk said while one is open is ranked as an answer."""
    return len(free_words.split()) > len(answer.split())


def said_among_other_words(sentence: str, free_words: str) -> bool:
    """Whisper's free decoding (``free_words``) holds ``sentence`` inside a longer sentence: table talk that
    says a command ("repeat after me")."""
    words, said = free_words.split(), sentence.split()
    return len(words) > len(said) and any(words[i:i + len(said)] == said for i in range(len(words) - len(said) + 1))


def read_out_command(spotted: Spotted, scored: Scored, second: Scored | None, free_words: str,
                     read_out: frozenset[str], over_floor_db: float) -> str:
    """The command that only reads something out (one of ``read_out``) that Whisper's scoring (``scored``) and
    Moonshine's alone (``second``) rank first in a loud room, by READ_OUT_LEAD and READ_OUT_SECOND_LEAD, fitting
    Moonshine within READ_OUT_FIT, the word model not putting it far behind (READ_OUT_HEAD_BEHIND), in an
    utterance of AGREED_COMMAND_SECONDS at most and not said among other words; or ""."""
    if second is None or not scored.ranked or over_floor_db >= HEAD_LOUD_ROOM_DB:
        return ""
    best = scored.ranked[0][0]
    if (best not in read_out or not _first_by(scored, best, READ_OUT_LEAD)
            or not _first_by(second, best, READ_OUT_SECOND_LEAD) or dict(second.fit).get(best, -math.inf) < READ_OUT_FIT
            or spotted.margin(best) < -READ_OUT_HEAD_BEHIND or spotted.seconds > AGREED_COMMAND_SECONDS):
        return ""
    return "" if said_among_other_words(best, free_words) else best


def unanimous_move(spotted: Spotted, scored: Scored, second: Scored | None, obeyed: frozenset[str],
                   refused: frozenset[str] = frozenset()) -> str:
    """The move or answer of two words or more (not one of ``obeyed`` or ``refused``) that the word model ranks
    first by HEAD_AGREES_MARGIN and both Whisper's scoring (with Moonshine's) and Moonshine's alone (``second``)
    rank first by UNANIMOUS_MOVE_LEAD; or ""."""
    if second is None or not spotted.ranked:
        return ""
    best = spotted.ranked[0][0]
    if best in obeyed or best in refused or len(best.split()) < 2 or spotted.margin(best) < HEAD_AGREES_MARGIN:
        return ""
    unanimous = _first_by(scored, best, UNANIMOUS_MOVE_LEAD) and _first_by(second, best, UNANIMOUS_MOVE_LEAD)
    return best if unanimous else ""


def agreed_reading(heard: Heard, spotted: Spotted, scored: Scored, second: Scored | None, obeyed: frozenset[str],
                   refused: frozenset[str] = frozenset()) -> str:
    """pocketsphinx's sentence, a move or an answer of two words or more (not one of ``obeyed`` or ``refused``),
    when Whisper's scoring (with Moonshine's) and Moonshine's alone (``second``) both rank it first by
    READING_LEAD and the word model does not put it more than READ_OUT_HEAD_BEHIND below its first; or ""."""
    text = heard.text
    if (not text or text in obeyed or text in refused or len(text.split()) < 2
            or spotted.margin(text) < -READ_OUT_HEAD_BEHIND):
        return ""
    return text if _first_by(scored, text, READING_LEAD) and _first_by(second, text, READING_LEAD) else ""


def agreed_answer(spotted: Spotted, scored: Scored, second: Scored | None, free_words: str,
                  answers: Sequence[frozenset[str]]) -> str:
    """The word model's first sentence when it is a form of one of ``answers``, Whisper's scoring (with
    Moonshine's) and Moonshine's alone (``second``) both rank a form of that answer first, ANSWER_AGREED_LEAD
    ahead of anything that is not, and Whisper's free decoding (``free_words``) has no more words than it; or
    ""."""
    if second is None or not spotted.ranked:
        return ""
    best = spotted.ranked[0][0]
    forms = next((group for group in answers if best in group), None)
    if forms is None or wrote_more_than(free_words, best):
        return ""
    agreed = _first_of(scored, forms, ANSWER_AGREED_LEAD) and _first_of(second, forms, ANSWER_AGREED_LEAD)
    return best if agreed else ""


def answer_disputed(answer: str, heard: Heard, spotted: Spotted | None, scorers: Sequence[Scored | None],
                    answers: Sequence[frozenset[str]]) -> bool:
    """``answer`` is a form of one of ``answers`` (Grammar.answers), and the word model (``spotted``) ranks a
    form of another answer first where pocketsphinx (``heard``) heard no form of this one; or ``answer`` is a
    no (NO_FORMS) and one of ``scorers`` ranks a form of another answer first."""
    forms = next((group for group in answers if answer in group), frozenset())
    if not forms:
        return False
    others = {form for group in answers if group != forms for form in group}
    if spotted is not None and spotted.ranked and spotted.ranked[0][0] in others and heard.text not in forms:
        return True
    return answer in NO_FORMS and any(ranking is not None and ranking.ranked and ranking.ranked[0][0] in others
                                      for ranking in scorers)


def ranked_first_by_none(sentence: str, rankings: Sequence[Spotted | Scored | None],
                         moves: Sequence[frozenset[str]]) -> bool:
    """``sentence`` names a move (it is in one of ``moves``, Grammar.moves) that none of ``rankings`` ranks
    first in any of its wordings."""
    forms = wordings(sentence, moves)
    return bool(forms) and not any(ranking is not None and ranking.ranked and ranking.ranked[0][0] in forms
                                   for ranking in rankings)


def short_form_unheard(sentence: str, heard: Heard, moves: Sequence[frozenset[str]]) -> bool:
    """``sentence`` is a wording of a move (one of ``moves``, Grammar.moves) in at most SHORT_FORM_WORDS words
    that does not begin with the card's verb ("ace one", "bring out", "marble three", not "burn six"), and
    pocketsphinx did not hear it (``heard``)."""
    words = sentence.split()
    return (sentence != heard.text and len(words) <= SHORT_FORM_WORDS and words[0] not in MOVE_VERBS
            and bool(wordings(sentence, moves)))


def stops_short(sentence: str, heard: Heard, moves: Sequence[frozenset[str]], obeyed: frozenset[str]) -> bool:
    """``sentence`` names a move (one of ``moves``) one of whose wordings the legal move pocketsphinx surely
    heard (heard_a_move_surely) goes on from, with more words that make it another move: "play seven green
    four (seven)" where pocketsphinx heard "play seven green four two"."""
    said = heard.text.split()
    group = wordings(sentence, moves)
    return (heard.text not in group and bool(wordings(heard.text, moves)) and heard_a_move_surely(heard, obeyed)
            and any(len(words) < len(said) and said[:len(words)] == words for words in map(str.split, group)))


def wordings(sentence: str, moves: Sequence[frozenset[str]]) -> frozenset[str]:
    """Every wording of the move ``sentence`` names (its set in ``moves``, Grammar.moves), or none."""
    return next((group for group in moves if sentence in group), frozenset())


def _first_by(scored: Scored | None, sentence: str, lead: float) -> bool:
    """``scored`` ranks ``sentence`` first, at least ``lead`` ahead of the next (if any)."""
    return _first_of(scored, frozenset((sentence,)), lead)


def _first_of(scored: Scored | None, sentences: frozenset[str], lead: float) -> bool:
    """``scored`` ranks one of ``sentences`` first, at least ``lead`` ahead of the best that is not (if any)."""
    if scored is None or not scored.ranked or scored.ranked[0][0] not in sentences:
        return False
    rival = next((score for text, score in scored.ranked if text not in sentences), None)
    return rival is None or scored.ranked[0][1] - rival >= lead


def sure(heard: Heard) -> Heard:
    """``heard`` as a hearing to act on: every word sure, no rival."""
    return replace(heard, word_confidences=tuple(0.95 for _ in heard.text.split()), alternatives=())


def sure_reading(heard: Heard) -> bool:
    """pocketsphinx heard one sentence, every word of it sure enough to act on, and no rival."""
    return (bool(heard.text) and bool(heard.word_confidences) and min(heard.word_confidences) >= 0.6
            and not heard.alternatives)
