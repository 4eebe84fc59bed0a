"""Yes-or-no questions outside a match ("replace the saved match?", "another match?"): what the game takes from
table talk and from real answers, said by the held-out voices in every room of benchmarks/asr.py.

    taskset -c 0 python3 benchmarks/questions.py                    # held-out voices, every room (~6 min)
    taskset -c 0 python3 benchmarks/questions.py --backend sphinx   # pocketsphinx alone

Each of asr.py's 30 lines of table talk is said twice and each spoken form of yes and no six times, by the
held-out voices (flite, pico) in turn, and heard through the recogniser the game picks (the default: pocketsphinx
checked by Whisper and Moonshine) two ways:

    before   the thirty-third round's question: every form of yes and no the game takes typed ("okay", "sure",
             "not now" ...) listened for as plain sentences, and whatever was heard counted, however unsure
    now      table/questions.py: only the answers of a match listened for, as answers, and an answer heard
             unsure or doubted asked again (answer_of)

Nothing was tuned on this part; "now" uses the command language's standing low-confidence line.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asr  # noqa: E402
import rooms  # noqa: E402
import voices as voice_bank  # noqa: E402
from voicejack.language import Grammar, Heard  # noqa: E402
from voicejack.speech import make_recogniser, recognise_samples  # noqa: E402
from voicejack.table.questions import NO_WORDS, SPOKEN_NO, SPOKEN_YES, YES_OR_NO, YES_WORDS, answer_of  # noqa: E402

BEFORE = Grammar(YES_WORDS + NO_WORDS)


def any_words(heard: Heard) -> bool | None:
    """The reading before the thirty-fourth round: whatever form of yes or no was heard."""
    words = " ".join(heard.text.split())
    return True if words in YES_WORDS else False if words in NO_WORDS else None


WAYS = (("before", BEFORE, any_words), ("now", YES_OR_NO, answer_of))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="auto", help="as voicejack play --backend (default: the game's)")
    parser.add_argument("--rooms", default=",".join(rooms.CONDITIONS), help=f"some of {', '.join(rooms.CONDITIONS)}")
    parser.add_argument("--seed", type=int, default=300)
    parser.add_argument("--verbose", action="store_true", help="print every line taken as an answer it was not")
    args = parser.parse_args(argv)
    speakers = voice_bank.all_voices(voice_bank.HELD_OUT_FAMILIES)
    plain = [v for v in speakers if (v.stretch, v.semitones) == (1.0, 0)]
    babble = {v.name: [voice_bank.synthesise(line, v) for line in asr.BABBLE_LINES] for v in plain}
    said: list[tuple[str, bool | None]] = [(line, None) for line in asr.CHATTER * 2]
    said += [(form, meaning) for forms, meaning in ((SPOKEN_YES, True), (SPOKEN_NO, False)) for form in forms
             for _ in range(6)]
    # One recogniser for each way: pocketsphinx carries what it learnt of the room from one utterance to the next.
    recognisers = {way: make_recogniser(args.backend) for way, _, _ in WAYS}
    print(f"{len(said)} utterances per room ({len(asr.CHATTER) * 2} of table talk), {len(speakers)} voices "
          f"({', '.join(voice_bank.HELD_OUT_FAMILIES)}), backend {args.backend}\n")
    print("| room | question | talk taken as yes % | talk taken as no % | answers right % | answers wrong % "
          "| answers asked again % |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for room in args.rooms.split(","):
        tallies: dict[str, Counter[str]] = {way: Counter() for way, _, _ in WAYS}
        for index, (text, meaning) in enumerate(said):
            voice = speakers[(index * 7 + args.seed) % len(speakers)]
            others = [s for key, lines in babble.items() if key != voice.name for s in lines]
            clip = rooms.make_clip(voice_bank.synthesise(text, voice), room, args.seed * 1000 + index, others)
            for reading, grammar, answer_from in WAYS:
                heard = recognise_samples(clip.samples, grammar, recognisers[reading])
                answer = answer_from(heard)
                if meaning is None:
                    tallies[reading]["talk " + {True: "yes", False: "no", None: "none"}[answer]] += 1
                else:
                    tallies[reading]["answer " + ("asked" if answer is None else "right" if answer == meaning
                                                  else "wrong")] += 1
                if args.verbose and answer is not None and answer != meaning:
                    print(f"  [{room}, {reading}] {voice.label}: said {text!r} heard {heard.text!r} "
                          f"{heard.word_confidences}", file=sys.stderr, flush=True)
        talk, answers = len(asr.CHATTER) * 2, len(said) - len(asr.CHATTER) * 2
        for reading, tally in tallies.items():
            print(f"| {room} | {reading} | {100 * tally['talk yes'] / talk:.1f} | {100 * tally['talk no'] / talk:.1f} "
                  f"| {100 * tally['answer right'] / answers:.1f} | {100 * tally['answer wrong'] / answers:.1f} "
                  f"| {100 * tally['answer asked'] / answers:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
