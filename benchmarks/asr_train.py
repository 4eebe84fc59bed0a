"""Fit the second pass's acceptance model (voicejack/speech/acceptance.py) on recordings of the tuning part.

    taskset -c 0 python3 benchmarks/asr.py --parts tuning --record /tmp/tuning.jsonl --record-whisper
    taskset -c 0 python3 benchmarks/asr.py --parts tuning-chatter --record /tmp/chatter.jsonl --record-whisper
    python3 benchmarks/asr_train.py /tmp/tuning.jsonl /tmp/chatter.jsonl

Every utterance Whisper would check gives one example per candidate (pocketsphinx's sentence, Whisper's
first): its features (``acceptance.features``) and whether that sentence, heard sure, does what was said
(chatter never). An L2-regularised logistic regression is fitted by Newton's method. Before the weights it
prints what the rule does on each voice family of the tuning part with weights fitted on the other two
(leave-one-family-out), the estimate the thresholds were chosen on. Held-out recordings are refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import asr  # noqa: E402
import voices as voice_bank  # noqa: E402
from asr_replay import _heard, chosen_thresholds, recorded_scores, recorded_spotted, replayed  # noqa: E402
from voicejack.hearing import Heard  # noqa: E402
from voicejack.speech.acceptance import FEATURES, HEAD_FEATURES, features  # noqa: E402
from voicejack.speech.judging import Evidence, JudgeSettings, judge  # noqa: E402
from voicejack.speech.check_rules import HEAD_LOUD_ROOM_DB, LOUD_ROOM_DB, needs_second_pass  # noqa: E402
from voicejack.speech.whisper_backend import LENGTH_BONUS  # noqa: E402


def load(paths: list[str], seed: int) -> list[tuple[dict[str, Any], asr.Item]]:
    rows = [json.loads(line) for name in paths for line in Path(name).read_text().splitlines() if line]
    if any(row["part"] == "held-out" for row in rows):
        raise SystemExit("asr_train.py: a held-out recording was given; the model is fitted on the tuning part only")
    families = voice_bank.TUNING_FAMILIES
    items = {"tuning": asr.build_items_for("tuning", 160, seed, families, False),
             "tuning-chatter": asr.chatter_items(1 + max((r["index"] for r in rows if r["part"] == "tuning-chatter"),
                                                         default=0), seed, families, False)}
    pairs = [(row, items[row["part"]][row["index"]]) for row in rows if "whisper" in row and "raw" in row]
    # A bare "yes" or "no" recorded as a command (before the twenty-second round, when the game listened for
    # them with nothing asked) is table talk to the items now, but was decoded with them in the grammar: left out.
    return [(row, item) for row, item in pairs if row.get("kind", item.kind) == item.kind]


def examples(row: dict[str, Any], item: asr.Item, moonshine: bool = False,
             head: bool = False) -> list[tuple[tuple[float, ...], bool]]:
    """(features, label) of each candidate of an utterance Whisper checks; none for one it does not."""
    evidence = Evidence(*row["evidence"]) if row["evidence"] is not None else None
    first = judge(_heard(row["raw"]), evidence, JudgeSettings())
    obeyed = item.grammar.obeyed
    # The sure readings the word model doubts, checked since the twenty-first round, are left out:
    # PAIR_HEAD_WEIGHTS were fitted without them.
    if not needs_second_pass(first, row["over_floor_db"], HEAD_LOUD_ROOM_DB if head else LOUD_ROOM_DB, obeyed,
                             item.grammar.refused):
        return []
    scored = recorded_scores(row, moonshine=moonshine)
    spotted = recorded_spotted(row) if head else None
    top = scored.ranked[0][0] if scored.ranked else ""
    spotted_top = spotted.ranked[0][0] if spotted is not None and spotted.ranked else ""
    out = []
    for text in dict.fromkeys(t for t in (first.text, top, spotted_top) if t):
        sure = Heard(text, tuple(0.95 for _ in text.split()), ())
        label = item.kind != "chatter" and asr.judge_outcome(item, sure) == "right"
        out.append((features(text, first, evidence, scored, row["over_floor_db"], obeyed, spotted), label))
    return out


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """Weights maximising the L2-penalised log-likelihood (the bias unpenalised), by Newton's method."""
    beta = np.zeros(x.shape[1])
    penalty = l2 * np.diag(np.r_[0.0, np.ones(x.shape[1] - 1)])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -30, 30)))
        gradient = x.T @ (p - y) + penalty @ beta
        hessian = (x.T * (p * (1 - p))) @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-9:
            break
    return beta


def fitted(pairs: list[tuple[dict[str, Any], asr.Item]], l2: float, moonshine: bool = False,
           head: bool = False) -> np.ndarray:
    found = [example for row, item in pairs for example in examples(row, item, moonshine, head)]
    x = np.array([f for f, _ in found])
    y = np.array([float(label) for _, label in found])
    return fit_logistic(x, y, l2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="fit acceptance.py's weights on tuning recordings")
    parser.add_argument("records", nargs="+")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--act", type=float, help="least probability to carry out a move (default: the backend's)")
    parser.add_argument("--confirm", type=float)
    parser.add_argument("--command", type=float)
    parser.add_argument("--rival-gap", type=float)
    parser.add_argument("--moonshine", action="store_true",
                        help="fit PAIR_WEIGHTS: Moonshine's scores of the finalists added (--record-moonshine)")
    parser.add_argument("--head", action="store_true",
                        help="the word model's scores as three more features and its first sentence as a third "
                        "candidate (recorded with --record-head)")
    args = parser.parse_args(argv)
    pairs = load(args.records, args.seed)
    thresholds = chosen_thresholds(args)
    families = sorted({item.voice.family for _, item in pairs})
    print("Leave-one-family-out (weights fitted on the other families):")
    asr.print_header()
    tallies: dict[tuple[str, str], dict[str, asr.Tally]] = {}
    for family in families:
        weights = fitted([(r, i) for r, i in pairs if i.voice.family != family], args.l2, args.moonshine, args.head)
        loud = HEAD_LOUD_ROOM_DB if args.head else LOUD_ROOM_DB
        whisper = {"loud_room_db": loud, "length_bonus": LENGTH_BONUS, "thresholds": thresholds,
                   "weights": tuple(float(w) for w in weights), "moonshine": args.moonshine, "head": args.head}
        for row, item in pairs:
            if item.voice.family != family:
                continue
            heard, _ = replayed(row, JudgeSettings(), whisper, item.grammar)
            part = "tuning" if row["part"] == "tuning" else "tuning-chatter"
            room_tallies = tallies.setdefault((part, row["room"]), {kind: asr.Tally() for kind in asr.KINDS})
            room_tallies[item.kind].add(asr.judge_outcome(item, heard), float("nan"))
    asr.print_chatter([asr.print_rows(part, room, t) for (part, room), t in tallies.items()])
    weights = fitted(pairs, args.l2, args.moonshine, args.head)
    print(f"\nWEIGHTS, fitted on all {len(pairs)} utterances (L2 {args.l2:g}):")
    for name, value in zip(FEATURES + (HEAD_FEATURES if args.head else ()), weights, strict=True):
        print(f"  {name:32s} {value:8.3f}")
    print("WEIGHTS = (" + ", ".join(f"{w:.3f}" for w in weights) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
