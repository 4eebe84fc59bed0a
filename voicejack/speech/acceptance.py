"""Which sentence a second pass settles on: pocketsphinx's or Whisper's, weighed by a fitted model.

When Whisper checks an utterance (whisper_backend.py) there are at most two candidates: the sentence
pocketsphinx heard and the sentence Whisper's forced scoring ranks first. Each gets a probability of
being what the player meant, from a logistic model over what both recognisers measured (``features``),
and the likelier one is carried out, confirmed or refused by how sure the model is and by what the
sentence would do: a command is obeyed the moment it is heard, so it needs more than a move, which can
be confirmed ("play seven red one five ... is that right?") or asked as a choice against a close rival.

The weights were fitted on the tuning part of benchmarks/asr.py only (espeak-ng, mbrola and festival
voices, 160 positions in five rooms, and 1,000 more table-chatter utterances), by
``python3 benchmarks/asr_train.py``; its label is whether the candidate, heard sure, does what the
speaker meant (so "nope" for "no" counts as right), chatter never. The thresholds were set on that
part's leave-one-voice-family-out cross-validation. They replaced hand-set margins and floors that
turned most of what they doubted into "didn't catch that".
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from voicejack.hearing import Heard
from voicejack.speech.judging import Evidence
from voicejack.speech.transcripts import Scored, edit_cost, normalise
from voicejack.speech.word_head import Spotted

# Feature names in the order of WEIGHTS (see ``features``).
FEATURES = (
    "bias", "whisper margin", "whisper fit", "transcript distance", "pocketsphinx heard it",
    "pocketsphinx mean confidence", "pocketsphinx least confidence", "runner-up margin",
    "pocketsphinx doubted it", "whisper ranks it first", "speech over room (10 dB)", "a command",
    "words (4s)", "both agree", "extra words (4s)",
)
# With the word model on Whisper's encoder (word_head.py) three more, after those.
HEAD_FEATURES = ("head margin", "head fit (per second)", "head ranks it first")
# Fitted by benchmarks/asr_train.py (L2 1.0) on the tuning recording.
WEIGHTS = (
    10.904, -0.039, 1.634, -1.713, 1.004, 0.771, 0.141, 0.794, -0.299, -0.891, -0.248, -3.098, -1.648, 0.112,
    0.862,
)
# The same model when Moonshine's scores are averaged with Whisper's (whisper_backend.finalists,
# transcripts.combine), fitted the same way (``asr_train.py --moonshine``) on a recording of the tuning part
# and 1,000 lines of table talk made with both (models/README.md, fifteenth round).
PAIR_WEIGHTS = (
    10.112, -0.043, 1.943, -1.247, 1.104, 0.582, -0.129, 0.025, 0.008, -0.633, 0.088, -2.628, -1.029, 0.471,
    0.842,
)
# Both again with the word model's three features (HEAD_FEATURES) and its first sentence as a third
# candidate, fitted (``asr_train.py --head``, with and without ``--moonshine``) on the tuning recording with
# each utterance scored by a word model trained without its voice family (models/README.md, seventeenth round),
# and fitted again when the check came to run on speech up to 28 dB over the room (nineteenth round).
HEAD_WEIGHTS = (
    7.634, -0.119, 1.066, -1.810, 1.014, 0.330, 0.057, 0.714, 0.071, 0.076, -0.156, -1.461, -0.091, 0.284, 0.712,
    -0.021, 0.287, -0.008,
)
PAIR_HEAD_WEIGHTS = (
    8.226, -0.118, 1.374, -1.324, 0.987, 0.209, -0.075, 0.447, 0.066, -0.383, 0.050, -1.390, 0.623, 0.295, 0.680,
    -0.023, 0.321, -0.117,
)


@dataclass(frozen=True, slots=True)
class Thresholds:
    act: float = 0.8  # a move (or anything not obeyed at once) at least this likely is carried out ...
    confirm: float = 0.4  # ... from this up to ``act`` it is confirmed first; below, "didn't catch that"
    command: float = 0.7  # a command (a sentence of Grammar.obeyed) is obeyed from this up, else refused
    rival_gap: float = 0.25  # another candidate this close to the chosen one is offered as a choice ...
    rival_floor: float = 0.3  # ... if it is at least this likely itself


# With Moonshine's second opinion (and the word model) commands are obeyed from 0.6 and a rival is offered only
# within 0.2: on the tuning part, refitted per family, that got 6 more commands in a hundred in the reverberant
# room with no wrong move added (fifteenth and nineteenth rounds). Moves are carried out from 0.45: below 0.6
# most hearings the game asked about were the move said, and carrying them out added no wrong move on the
# tuning part (refitted per family) nor on nine held-out parts, where it got 1-2 more moves in a hundred right
# in the reverberant room (models/README.md, twenty-third round).
PAIR_THRESHOLDS = Thresholds(act=0.45, command=0.6, rival_gap=0.2)
# With the word model but without Moonshine, moves from 0.7 (nineteenth round; the same measure).
HEAD_THRESHOLDS = Thresholds(act=0.7, rival_gap=0.2)


def features(candidate: str, first: Heard, evidence: Evidence | None, scored: Scored, over_floor_db: float,
             obeyed: frozenset[str], spotted: Spotted | None = None) -> tuple[float, ...]:
    """What the recognisers measured about ``candidate`` (pocketsphinx heard ``first``), in FEATURES' order
    (and HEAD_FEATURES' after them when the word model ``spotted`` the grammar too)."""
    score = dict(scored.ranked)
    others = [value for text, value in scored.ranked if text != candidate]
    margin = score.get(candidate, -99.0) - (max(others) if others else -99.0)
    fit = dict(scored.fit).get(candidate, -10.0)
    free = normalise(scored.free_text)
    words = candidate.split()
    mine = candidate == first.text
    confidences = first.word_confidences or (0.0,)
    runner_up = evidence.margin if evidence is not None else math.inf
    top = scored.ranked[0][0] if scored.ranked else ""
    head: tuple[float, ...] = ()
    if spotted is not None:
        head = (
            max(-15.0, min(15.0, spotted.margin(candidate))),
            max(-20.0, min(0.0, spotted.fit(candidate))),
            float(bool(spotted.ranked) and candidate == spotted.ranked[0][0]),
        )
    return (
        1.0,
        max(-15.0, min(15.0, margin)),
        max(-10.0, min(0.0, fit)),
        min(2.0, edit_cost(free, words) / max(1, len(words))),
        float(mine),
        statistics.fmean(confidences) if mine else 0.0,
        min(confidences) if mine else 0.0,
        (max(-0.1, min(0.3, runner_up)) if math.isfinite(runner_up) else 0.3) if mine else 0.0,
        float(bool(first.alternatives)) if mine else 0.0,
        float(candidate == top),
        max(0.0, min(40.0, over_floor_db)) / 10.0,
        float(candidate in obeyed),
        min(8, len(words)) / 4.0,
        float(bool(first.text) and first.text == top),
        max(0, len(free) - len(words)) / 4.0,
        *head,
    )


def probability(values: Sequence[float], weights: Sequence[float] = WEIGHTS) -> float:
    total = sum(w * v for w, v in zip(weights, values, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, total))))


def settle(first: Heard, evidence: Evidence | None, scored: Scored, over_floor_db: float,
           obeyed: frozenset[str] = frozenset(), thresholds: Thresholds = Thresholds(),
           weights: Sequence[float] = WEIGHTS, confirmed: frozenset[str] = frozenset(),
           spotted: Spotted | None = None) -> Heard:
    """What the game should act on, once Whisper has scored the utterance pocketsphinx heard as ``first``.

    ``obeyed`` and ``confirmed`` are the grammar's (hearing.Grammar): a command of ``confirmed`` not sure
    enough to obey but as likely as a move that would be confirmed is handed over doubted, and the game asks
    about it ("Did you say read the board?") instead of "didn't catch that". With the word model's scores
    (``spotted``, and weights fitted with them) its first sentence is a third candidate."""
    top = scored.ranked[0][0] if scored.ranked else ""
    spotted_top = spotted.ranked[0][0] if spotted is not None and spotted.ranked else ""
    candidates = list(dict.fromkeys(text for text in (first.text, top, spotted_top) if text))
    if not candidates:
        return Heard("", (), first.alternatives)
    ranked = sorted(((probability(features(text, first, evidence, scored, over_floor_db, obeyed, spotted), weights),
                      text) for text in candidates), reverse=True)
    likeliest, chosen = ranked[0]
    hints = tuple(text for _, text in ranked)
    if chosen in obeyed:
        if likeliest >= thresholds.command:
            return heard_as(chosen, 0.95, (), first)
        if likeliest >= thresholds.confirm and chosen in confirmed:
            return replace(heard_as(chosen, 0.5, (), first), doubted=True)
        return Heard("", (), hints)
    rivals = tuple(text for p, text in ranked[1:] if p >= max(thresholds.rival_floor, likeliest - thresholds.rival_gap))
    if likeliest >= thresholds.act:
        return heard_as(chosen, 0.95, rivals, first)
    if likeliest >= thresholds.confirm:
        return heard_as(chosen, 0.5, rivals, first)  # the command language confirms under 0.6
    return Heard("", (), hints)


def heard_as(text: str, confidence: float, alternatives: tuple[str, ...], first: Heard) -> Heard:
    """``text`` heard with ``confidence`` on every word and these rivals; when it is what pocketsphinx heard
    (``first``) it keeps the levels pocketsphinx measured of its words (the wake gate reads them)."""
    heard = Heard(text, tuple(confidence for _ in text.split()), alternatives)
    if text == first.text:
        heard = replace(heard, word_levels=first.word_levels)  # the words pocketsphinx measured (the wake gate)
    return heard
