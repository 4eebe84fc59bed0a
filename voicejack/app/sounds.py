"""`voicejack sounds`: build the cue pack, list the cues, or check a folder of replacements."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from voicejack.audio.cuebank import CueBank, default_sounds_dir
from voicejack.audio.cuepack import CUE_DESCRIPTIONS, SAMPLE_RATE, write_pack


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="voicejack sounds",
        description="Write the built-in cue pack as WAV files (16-bit mono), list the cues, or check a sounds folder. "
        "Replace any <cue>.wav with your own sound (any rate, any channels) to change what the game plays.",
    )
    parser.add_argument("--out", metavar="DIR", type=Path, default=None,
                        help=f"folder to write (default: {default_sounds_dir()})")
    parser.add_argument("--rate", type=int, default=SAMPLE_RATE, help="sample rate of the files (default: %(default)s)")
    parser.add_argument("--list", action="store_true", help="list the cues and what each one means, then exit")
    parser.add_argument("--check", action="store_true",
                        help="load every cue from the folder and say which are replaced, built-in or broken")
    return parser


def sounds_main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    directory: Path = args.out if args.out is not None else default_sounds_dir()
    if args.list:
        width = max(len(name) for name in CUE_DESCRIPTIONS)
        for name, meaning in CUE_DESCRIPTIONS.items():
            print(f"{name.ljust(width)}  {meaning}")
        return 0
    if args.check:
        bank = CueBank(SAMPLE_RATE, directory)
        for name in CUE_DESCRIPTIONS:
            print(f"{name}: {bank.sources[name]} ({bank.seconds(name):.2f} s)")
        if bank.problems:
            print(bank.notice(), file=sys.stderr)
            return 2
        return 0
    if not 8000 <= args.rate <= 192000:
        print(f"voicejack sounds: --rate must be between 8000 and 192000, not {args.rate}", file=sys.stderr)
        return 2
    try:
        written = write_pack(directory, args.rate)
    except OSError as error:
        print(f"voicejack sounds: cannot write to {directory}: {error.strerror or error}", file=sys.stderr)
        return 2
    total = sum(path.stat().st_size for path in written)
    print(f"Wrote {len(written)} cues ({total // 1024} KB) to {directory}")
    return 0
