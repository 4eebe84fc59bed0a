"""`voicejack model list | download | verify` and `voicejack devices`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from voicejack.speech.recogniser import SpeechError

FALLBACK_NOTE = "Voice input still works offline with pocketsphinx, which is built in (--backend sphinx)."


def _models_dir(value: str | None) -> Path:
    from voicejack.speech.models import default_models_dir

    return Path(value).expanduser() if value else default_models_dir()


def _list(args: argparse.Namespace) -> int:
    from voicejack.speech import choose_backend
    from voicejack.speech.models import (
        KNOWN_MODELS,
        MODEL_ENV,
        find_vosk_model,
        looks_english,
        model_dirs,
    )
    from voicejack.speech.vosk_backend import check_model_layout

    root = _models_dir(args.dir)
    print(f"models directory: {root}{'' if root.is_dir() else ' (does not exist yet)'}")
    found = model_dirs(root)
    if not found:
        print("  no vosk models installed")
    for path in found:
        problems = check_model_layout(path)
        state = "ready" if not problems else "incomplete: missing " + ", ".join(problems)
        language = "English" if looks_english(path) else "not English"
        print(f"  {path.name}: {state} ({language})")
    chosen = find_vosk_model(None, root)
    import os

    if os.environ.get(MODEL_ENV):
        print(f"{MODEL_ENV}={os.environ[MODEL_ENV]}")
    print("pocketsphinx: built-in US English model (always available)")
    from voicejack.speech.whisper_backend import find_whisper_model

    whisper = find_whisper_model()
    print(f"whisper tiny.en (second pass, --backend sphinx+whisper): {whisper if whisper else 'not installed'}")
    from voicejack.speech.moonshine_backend import find_moonshine_model

    moonshine = find_moonshine_model()
    print(f"moonshine base (second opinion on Whisper's finalists, --backend sphinx+whisper+moonshine): "
          f"{moonshine if moonshine else 'not installed (pip install voicejack[moonshine])'}")
    print("downloadable: " + ", ".join(f"{m.name} (~{m.approx_megabytes} MB)" for m in KNOWN_MODELS.values()))
    backend = choose_backend("auto")
    using = {"vosk": f"vosk with {chosen}", "sphinx+whisper": "pocketsphinx checked by Whisper tiny.en",
             "sphinx+whisper+moonshine": "pocketsphinx checked by Whisper tiny.en and Moonshine base"}.get(
        backend, "pocketsphinx")
    print(f"voice input uses: {using}")
    return 0


def _download(args: argparse.Namespace) -> int:
    from voicejack.speech.models import DownloadError, download_model, progress_bar

    root = _models_dir(args.dir)
    print(f"downloading {args.name} into {root}", file=sys.stderr)
    try:
        path = download_model(args.name, root, url=args.url, replace=args.force, progress=progress_bar(sys.stderr))
    except DownloadError as error:
        print(f"\nvoicejack model: {error}\n{FALLBACK_NOTE}", file=sys.stderr)
        return 2
    print(f"installed {path}")
    return 0


def _verify(args: argparse.Namespace) -> int:
    from voicejack.speech.models import find_vosk_model
    from voicejack.speech.vosk_backend import ModelError, check_model_layout, load_model

    root = _models_dir(args.dir)
    target = args.model
    if target is None:
        path = find_vosk_model(None, root)
        if path is None:
            print(f"voicejack model: no vosk model to verify in {root}.\n{FALLBACK_NOTE}", file=sys.stderr)
            return 2
    else:
        path = Path(target).expanduser()
        if not path.exists() and (root / target).exists():
            path = root / target
    if not path.is_dir():
        print(f"voicejack model: {path} is not a model directory", file=sys.stderr)
        return 2
    problems = check_model_layout(path)
    if problems:
        print(
            f"voicejack model: {path} is incomplete or cannot take grammars: missing {', '.join(problems)}",
            file=sys.stderr,
        )
        return 2
    print(f"{path}: layout ok (am/, conf/, graph/HCLr.fst, graph/Gr.fst)")
    if args.load:
        try:
            model = load_model(path)
        except ModelError as error:
            print(f"voicejack model: {error}", file=sys.stderr)
            return 2
        words = ("play", "red", "king", "burn", "[unk]")
        missing = [w for w in words if int(model.vosk_model_find_word(w)) < 0]  # type: ignore[attr-defined]
        if missing:
            print(f"loaded; these game words are not in its vocabulary: {', '.join(missing)}")
        else:
            print("loaded; game words and [unk] are in its vocabulary")
    return 0


def model_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="voicejack model", description="List, download or verify speech models.")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dir", help="models directory (default: $VOICEJACK_MODELS_DIR or models/)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", parents=[common], help="show installed models and which recogniser voice input uses")
    download = commands.add_parser(
        "download", parents=[common], help="fetch a vosk model (needs internet) into the models directory"
    )
    download.add_argument("name", nargs="?", default="vosk-model-small-en-us-0.15")
    download.add_argument("--url", help="fetch from this address instead of the official one")
    download.add_argument("--force", action="store_true", help="replace an installed copy")
    verify = commands.add_parser("verify", parents=[common], help="check a model's files (and with --load, that vosk loads it)")
    verify.add_argument("model", nargs="?", help="model directory or name under the models directory")
    verify.add_argument("--load", action="store_true", help="also load it with vosk and check game words")
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        return {"list": _list, "download": _download, "verify": _verify}[args.command](args)
    except SpeechError as error:
        print(f"voicejack model: {error}", file=sys.stderr)
        return 2


def devices_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="voicejack devices", description="List audio input and output devices.")
    parser.add_argument("--input-device", help="check that this device (number or part of its name) can be used")
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exit_:
        return int(exit_.code or 0)
    from voicejack.speech.microphone import (
        NoMicrophone,
        list_devices,
        resolve_input_device,
    )

    try:
        devices = list_devices()
    except NoMicrophone as error:
        print(f"voicejack devices: {error}", file=sys.stderr)
        return 2
    inputs = [d for d in devices if d.inputs > 0]
    outputs = [d for d in devices if d.outputs > 0]
    print("input devices (microphones):")
    for device in inputs:
        mark = " (default)" if device.is_default_input else ""
        print(f"  {device.index}: {device.name} [{device.host_api}, {device.inputs} ch]{mark}")
    if not inputs:
        print("  none: voice input is off, type your commands instead")
    print("output devices (speakers, headphones):")
    for device in outputs:
        mark = " (default)" if device.is_default_output else ""
        print(f"  {device.index}: {device.name} [{device.host_api}, {device.outputs} ch]{mark}")
    if not outputs:
        print("  none")
    if args.input_device is not None:
        try:
            index = resolve_input_device(args.input_device, devices)
        except NoMicrophone as error:
            print(f"voicejack devices: {error}", file=sys.stderr)
            return 2
        print(f"--input-device {args.input_device} selects {index}: {devices[index].name}" if index is not None else "")
    return 0
