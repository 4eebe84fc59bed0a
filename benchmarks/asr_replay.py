"""Record what the recognisers measured on every benchmark utterance, and replay decision rules on it.

    nice python3 benchmarks/asr.py --quick --record /tmp/tuning.jsonl [--record-whisper]
    python3 benchmarks/asr_replay.py /tmp/tuning.jsonl --quick --tie-margin 0.1
    python3 benchmarks/asr_replay.py /tmp/tuning.jsonl --whisper --act 0.9 --command 0.8

Recording runs pocketsphinx once per utterance and keeps its unjudged hearing, the evidence of
voicejack/speech/judging.py (the runner-up sentence), how loud the speech stood over the
room and, with --record-whisper, Whisper tiny.en's scores for the sentences nearest its free decoding,
pocketsphinx's sentence and its runner-up. Replaying applies ``judge`` (and, with --whisper, the check's own
rules, ``check_rules.decide``, the very code the game runs) with other thresholds to the recorded values and
resolves the result with the real command language, so the numbers are those a run with the same thresholds
would give (the corpus is rebuilt from the same seeds; latencies are left out). Thresholds are chosen on the tuning
part and then replayed once on the held-out part. A recording ends utterances as pocketsphinx alone does,
so what the word model's confirmation of an early end changes (recogniser.py, ``confirms_early``) is
measured live.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
import sys
import time
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import voices as voice_bank  # noqa: E402
from voicejack.hearing import Grammar, Heard  # noqa: E402
from voicejack.language.resolution import LanguageSettings  # noqa: E402
from voicejack.speech.endpoint import quieten_other_talkers  # noqa: E402
from voicejack.speech.judging import Evidence, JudgeSettings, judge  # noqa: E402
from voicejack.speech.sphinx import SphinxRecogniser  # noqa: E402
from voicejack.speech.acceptance import (  # noqa: E402
    HEAD_THRESHOLDS, HEAD_WEIGHTS, PAIR_HEAD_WEIGHTS, PAIR_THRESHOLDS, PAIR_WEIGHTS, WEIGHTS, Thresholds,
)
from voicejack.speech.moonshine_backend import LENGTH_BONUS as MOONSHINE_BONUS  # noqa: E402
from voicejack.speech.transcripts import Scored, combine, edit_cost, normalise  # noqa: E402
from voicejack.speech.word_head import Spotted  # noqa: E402
from voicejack.speech.check_rules import (  # noqa: E402
    HEAD_LOUD_ROOM_DB, LOUD_ROOM_DB, decide, needs_second_pass, word_model_doubts,
)
from voicejack.speech.whisper_backend import LENGTH_BONUS, finalists  # noqa: E402


def _heard(data: list[Any]) -> Heard:
    return Heard(data[0], tuple(data[1]), tuple(data[2]))


def _plain(heard: Heard) -> list[Any]:
    return [heard.text, list(heard.word_confidences), list(heard.alternatives)]


class RecordingSphinx(SphinxRecogniser):
    """pocketsphinx (judging on, as configured) that keeps everything a replay needs about each result."""

    name = "sphinx-recording"

    def __init__(self, whisper: bool = False, whisper_context: str = "", moonshine: bool = False,
                 head: str | None = None, **settings: Any) -> None:
        super().__init__(**settings)
        self.scorer: Any = None
        self.second: Any = None
        # ``head``: "shipped" for the word model in the package, or a model file; "{family}" in its name is the
        # voice family of the utterance (``family``, set before each one), so that each is scored by a word model
        # trained without its family (models/README.md, seventeenth round).
        self.head = head
        self.heads: dict[str, Any] = {}
        self.family = ""
        if whisper:
            from voicejack.speech.whisper_backend import WhisperScorer

            self.scorer = WhisperScorer(context=whisper_context)
        if moonshine:
            from voicejack.speech.moonshine_backend import MoonshineScorer

            self.second = MoonshineScorer()
        self.record: dict[str, Any] = {}

    def _judged(self, audio: np.ndarray, heard: Heard) -> Heard:
        judged = super()._judged(audio, heard)
        evidence = self.last_evidence
        self.record = {
            "raw": _plain(heard),
            "evidence": None if evidence is None else [evidence.frames, evidence.best, evidence.runner_up,
                                                        evidence.runner_up_score],
            "over_floor_db": self._endpointer.speech_over_floor_db,
        }
        if self.scorer is not None and len(audio):
            also = (heard.text, *heard.alternatives, evidence.runner_up if evidence else "")
            self.record.update(self._scores(audio, also))
            if self._endpointer.busy_background:
                # What the game's second look at the player's words alone would score (whisper_backend, when the
                # check hears nothing behind other talkers).
                self.record["alone"] = self._scores(quieten_other_talkers(audio), also)
        return judged

    def _scores(self, audio: np.ndarray, also: tuple[str, ...]) -> dict[str, Any]:
        """The word model's, Whisper's and Moonshine's scores of ``audio`` (as configured), for a record."""
        record: dict[str, Any] = {}
        began = time.perf_counter()
        sentences = tuple(self._sentences)
        transcript = self.scorer.transcribe(audio)
        if self.head is not None:
            from voicejack.speech.whisper_backend import HEAD_CANDIDATES
            from voicejack.speech.word_head import WordHead

            path = None if self.head == "shipped" else self.head.format(family=self.family)
            model = self.heads.setdefault(str(path), WordHead(path))
            spotted = model.spot(transcript.speech_frames(), sentences)
            also = (*also, *spotted.best(HEAD_CANDIDATES))
            record["head"] = {"ranked": [list(pair) for pair in spotted.ranked],
                              "best_path": spotted.best_path, "frames": spotted.frames}
        scored = self.scorer.rank(transcript, sentences, also=also, length_bonus=0.0)
        record["whisper"] = {"free": scored.free_text, "ranked": [list(pair) for pair in scored.ranked],
                             "distance": scored.distance, "near_free": list(scored.near_free),
                             "ms": (time.perf_counter() - began) * 1000.0,
                             "tokens": {text: self.scorer.token_count(text) for text, _ in scored.ranked}}
        if self.second is not None:
            began = time.perf_counter()
            chosen = finalists(recorded_scores(record), also)
            second = self.second.score(audio, chosen, length_bonus=0.0)
            record["moonshine"] = {"ranked": [list(pair) for pair in second.ranked],
                                   "ms": (time.perf_counter() - began) * 1000.0,
                                   "tokens": {text: self.second.token_count(text) for text in chosen}}
        return record


def write_record(out: TextIO, recogniser: RecordingSphinx, part: str, room: str, index: int, item: Any,
                 latency: float) -> None:
    row = {"part": part, "room": room, "index": index, "kind": item.kind, "said": item.text,
           "latency": None if np.isnan(latency) else latency, **recogniser.record}
    recogniser.record = {}
    out.write(json.dumps(row) + "\n")
    out.flush()


_TOKENS: dict[str, int] = {}
_SCORER: list[Any] = []


def _tokens(sentence: str) -> int:
    """How many tokens Whisper scores for ``sentence`` (for a length bonus replayed on recorded sums)."""
    if sentence not in _TOKENS:
        if not _SCORER:
            from voicejack.speech.whisper_backend import WhisperScorer

            _SCORER.append(WhisperScorer())
        _TOKENS[sentence] = _SCORER[0].token_count(sentence)
    return _TOKENS[sentence]


def recorded_scores(row: dict[str, Any], length_bonus: float = LENGTH_BONUS, moonshine: bool = False) -> Scored:
    """Whisper's scoring of a recorded utterance as the recogniser sees it (sums recorded without the bonus),
    with ``moonshine`` Moonshine's opinion on the finalists added (recorded with --record-moonshine)."""
    scored = _recorded(row["whisper"], length_bonus)
    if moonshine:
        scored = combine(scored, _recorded(row["moonshine"], MOONSHINE_BONUS))
    return scored


def _recorded(w: dict[str, Any], length_bonus: float) -> Scored:
    w = {"free": "", "distance": 0.0, "near_free": [], **w}
    counts = w.get("tokens") or {text: _tokens(text) for text, _ in w["ranked"]}  # older recordings: Whisper's
    ranked = tuple(sorted(((text, score + length_bonus * counts[text]) for text, score in w["ranked"]),
                          key=lambda pair: -pair[1]))
    fit = tuple((text, score / max(1, counts[text])) for text, score in w["ranked"])
    best = ranked[0][0].split() if ranked else []
    distance = edit_cost(normalise(w["free"]), best) / max(1, len(best))
    return Scored(w["free"], ranked, distance, tuple(w["near_free"]), fit)


def recorded_spotted(row: dict[str, Any]) -> Spotted | None:
    """The word model's scores of a recorded utterance (recorded with --record-head), or None."""
    head = row.get("head")
    if head is None:
        return None
    return Spotted(tuple((text, score) for text, score in head["ranked"]), head["best_path"], head["frames"])


def _decided(row: dict[str, Any], heard: Heard, spotted: Spotted | None, grammar: Grammar,
             whisper: dict[str, Any], pair: bool) -> Heard:
    """The check's verdict (check_rules.decide) on ``heard`` from the scores ``row`` recorded."""
    free = " ".join(normalise(row["whisper"]["free"]))
    second = _recorded(row["moonshine"], MOONSHINE_BONUS) if pair else None
    evidence = Evidence(*row["evidence"]) if row["evidence"] is not None else None
    scored = recorded_scores(row, whisper["length_bonus"], pair)
    decided, _ = decide(heard, spotted, lambda: free, lambda: (scored, second), evidence, row["over_floor_db"],
                        grammar, whisper["loud_room_db"], whisper["thresholds"], whisper.get("weights", WEIGHTS))
    return decided


def replayed(row: dict[str, Any], settings: JudgeSettings | None, whisper: dict[str, Any] | None,
             grammar: Grammar = Grammar(())) -> tuple[Heard, float]:
    """What the recogniser would have returned with these settings, and an estimate of its latency (ms), the
    utterance heard with ``grammar`` (its sentences are those the recording scored).

    The recorded latency includes Whisper's scoring of every utterance (recorded apart as well): it is
    taken off where the replayed rule would not have asked Whisper.
    """
    latency = row["latency"] if row.get("latency") is not None else float("nan")
    pair = bool(whisper and whisper.get("moonshine"))
    checks_ms = 0.0  # what the replayed rule's check would cost
    if "whisper" in row:
        latency -= row["whisper"]["ms"] + row.get("moonshine", {}).get("ms", 0.0)
        checks_ms = row["whisper"]["ms"] + (row["moonshine"]["ms"] if pair else 0.0)
    if "raw" not in row:
        return Heard(""), latency  # the utterance never reached a decoding
    heard = _heard(row["raw"])
    if settings is not None and row["evidence"] is not None:
        heard = judge(heard, Evidence(*row["evidence"]), settings)
    if whisper is not None and "whisper" in row:
        spotted = recorded_spotted(row) if whisper.get("head") else None
        checked = whisper.get("always") or needs_second_pass(heard, row["over_floor_db"], whisper["loud_room_db"],
                                                             grammar.obeyed, grammar.refused)
        if checked or (spotted is not None and word_model_doubts(heard, spotted, moves=grammar.moves)):
            latency += checks_ms  # the whole check, though agreement skips its scoring
            first = heard
            heard = _decided(row, first, spotted, grammar, whisper, pair)
            alone = row.get("alone")
            if not heard.text and alone is not None:
                latency += alone["whisper"]["ms"] + (alone["moonshine"]["ms"] if pair else 0.0)
                heard = _decided({**row, **alone}, first, recorded_spotted(alone) if whisper.get("head") else None,
                                 grammar, whisper, pair)
    return heard, latency


def chosen_thresholds(args: argparse.Namespace) -> Thresholds:
    """--act, --confirm, --command and --rival-gap over the thresholds the backend uses (the pair's with
    --moonshine, the word model's with --head alone)."""
    base = PAIR_THRESHOLDS if args.moonshine else HEAD_THRESHOLDS if args.head else Thresholds()
    given = {name: getattr(args, name) for name in ("act", "confirm", "command", "rival_gap")
             if getattr(args, name) is not None}
    return replace(base, **given)


def main(argv: list[str] | None = None) -> int:
    import asr

    parser = argparse.ArgumentParser(description="replay decision thresholds on a recorded benchmark run")
    parser.add_argument("records", nargs="+")
    parser.add_argument("--quick", action="store_true", help="the corpus was built with --quick")
    parser.add_argument("--positions", type=int, default=None)
    parser.add_argument("--held-out-positions", type=int, default=None)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-judging", action="store_true", help="pocketsphinx's hearing as it was before judging")
    parser.add_argument("--tie-margin", type=float, default=JudgeSettings().tie_margin)
    parser.add_argument("--obey-doubted-commands", action="store_true",
                        help="the command language as before: obey a command whatever its alternatives say")
    parser.add_argument("--whisper", action="store_true", help="apply the Whisper second pass too")
    parser.add_argument("--loud-room-db", type=float, default=None, help="default: the backend's")
    parser.add_argument("--whisper-length-bonus", type=float, default=LENGTH_BONUS)
    parser.add_argument("--act", type=float, help="least probability to carry out a move (default: the backend's)")
    parser.add_argument("--confirm", type=float, help="least probability to confirm one")
    parser.add_argument("--command", type=float, help="least probability to obey a command")
    parser.add_argument("--rival-gap", type=float, help="a rival this close to the likeliest sentence is offered too")
    parser.add_argument("--whisper-always", action="store_true", help="the second pass on every utterance")
    parser.add_argument("--moonshine", action="store_true",
                        help="with --whisper: Moonshine's scores of the finalists added (recorded with --record-moonshine)")
    parser.add_argument("--head", action="store_true",
                        help="with --whisper: the word model's scores too (recorded with --record-head)")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for name in args.records for line in Path(name).read_text().splitlines() if line]
    parts = sorted({row["part"] for row in rows}, key=lambda p: p != "tuning")
    rooms_seen = list(dict.fromkeys(row["room"] for row in rows))
    items: dict[str, list[Any]] = {}
    if "tuning" in parts:
        count = args.positions or (40 if args.quick else 160)
        items["tuning"] = asr.build_items_for("tuning", count, args.seed, voice_bank.TUNING_FAMILIES, args.quick)
    if "held-out" in parts:
        count = args.held_out_positions or (24 if args.quick else 100)
        items["held-out"] = asr.build_items_for("held-out", count, args.seed + 1,
                                                voice_bank.HELD_OUT_FAMILIES, args.quick)
    for part in ("tuning-chatter", "held-out-asked", "held-out-card-first"):
        if part in parts:  # as many items as the recording reached
            count = 1 + max(row["index"] for row in rows if row["part"] == part)
            tuning = part.startswith("tuning")
            families = voice_bank.TUNING_FAMILIES if tuning else voice_bank.HELD_OUT_FAMILIES
            items[part] = asr.part_items(part, count, args.seed if tuning else args.seed + 1, families, args.quick)
    settings = None if args.no_judging else JudgeSettings(args.tie_margin)
    whisper = None
    if args.whisper:
        thresholds = chosen_thresholds(args)
        weights = {(False, False): WEIGHTS, (True, False): PAIR_WEIGHTS, (False, True): HEAD_WEIGHTS,
                   (True, True): PAIR_HEAD_WEIGHTS}[(args.moonshine, args.head)]
        loud = args.loud_room_db if args.loud_room_db is not None else HEAD_LOUD_ROOM_DB if args.head else LOUD_ROOM_DB
        whisper = {"loud_room_db": loud, "length_bonus": args.whisper_length_bonus,
                   "thresholds": thresholds, "always": args.whisper_always, "moonshine": args.moonshine,
                   "head": args.head, "weights": weights}
    language = LanguageSettings(refuse_doubted_commands=not args.obey_doubted_commands)
    by_key = {(row["part"], row["room"], row["index"]): row for row in rows}
    asr.print_header()
    chatter_rows: list[str] = []
    for part in parts:
        for room in rooms_seen:
            tallies = {kind: asr.Tally() for kind in asr.KINDS}
            for index, item in enumerate(items[part]):
                row = by_key.get((part, room, index))
                if row is None:
                    continue
                heard, latency = replayed(row, settings, whisper, item.grammar)
                tallies[item.kind].add(asr.judge_outcome(item, heard, language), latency)
            if any(t.total for t in tallies.values()):
                chatter_rows.append(asr.print_rows(part, room, tallies))
    asr.print_chatter(chatter_rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
