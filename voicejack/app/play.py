"""`voicejack play`, `voicejack resume`, `voicejack demo` (and plain `voicejack`)."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voicejack.app.common import EXIT_BAD_INPUT, CommandParser, load_table_or_complain
from voicejack.engine import GameState, make_rules, new_game
from voicejack.engine.state import Seat
from voicejack.table.inputs import InputHub, KeyboardSource
from voicejack.table.match import Match, MatchConfig, Outcome
from voicejack.table.messages import say
from voicejack.table.presenter import Presenter
from voicejack.table.settings import Settings, load_settings, save_settings

if TYPE_CHECKING:
    from voicejack.audio.output import AudioOutput
    from voicejack.table.voice import VoiceSource

SEAT_KINDS = ("human", "voice", "keyboard", "bot")


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "voicejack"


def autosave_path() -> Path:
    return data_dir() / "autosave.json"


def _common_options(parser: argparse.ArgumentParser) -> None:
    sound = parser.add_argument_group("sound and speech")
    sound.add_argument("--rate", type=int, help="speech rate in words a minute (default: remembered, else 175)")
    sound.add_argument("--brief", action="store_true", default=None, help="brief descriptions")
    sound.add_argument("--full", dest="brief", action="store_false", help="full descriptions (for learning)")
    sound.add_argument("--headphones", action="store_true", default=None, help="headphone spatialisation")
    sound.add_argument("--speakers", dest="headphones", action="store_false", help="loudspeaker panning")
    sound.add_argument("--output-device", help="sound output device (see: voicejack devices)")
    sound.add_argument("--input-device", help="microphone (see: voicejack devices)")
    sound.add_argument("--record", metavar="FILE.wav", help="also write everything heard to a WAV file")
    sound.add_argument("--no-sound", action="store_true", help="text only: no speech, no cues")
    voice = parser.add_argument_group("input")
    voice.add_argument("--keyboard", action="store_true", help="type moves, even with a microphone")
    voice.add_argument("--backend", choices=("auto", "vosk", "sphinx"), help="speech recogniser")
    voice.add_argument("--confirm", choices=("auto", "always", "never"), help="when moves are confirmed")
    voice.add_argument("--silence-timeout", type=float, metavar="SECONDS",
                       help="a bot takes a human seat after this much silence (0: never)")
    parser.add_argument("--save", metavar="FILE.json", help="where save, quit and the autosave write")


def _settings_from(args: argparse.Namespace) -> tuple[Settings, str | None]:
    settings, warning = load_settings()
    changes: dict[str, Any] = {}
    for option, key in (("rate", "speech_rate"), ("brief", "brief"), ("headphones", "headphones"),
                        ("output_device", "output_device"), ("input_device", "input_device"),
                        ("backend", "backend"), ("confirm", "confirm"), ("silence_timeout", "silence_timeout")):
        value = getattr(args, option, None)
        if value is not None:
            changes[key] = value
    return dataclasses.replace(settings, **changes), warning


def play_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack play", description="Start a match: by default you against three bots, in teams.")
    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--free-for-all", action="store_true", help="4 players, every player for themselves")
    parser.add_argument("--complex", action="store_true", help="the complex version")
    parser.add_argument("--seats", help="seat kinds in seat order, e.g. human,bot:hard,human,bot "
                        "(human, voice, keyboard, bot, bot:random|easy|medium|hard); default: you and bots")
    parser.add_argument("--names", help="seat names in seat order, e.g. Ann,Bot,Sam,Bot")
    parser.add_argument("--seed", type=int, help="seed for the first dealer and every shuffle")
    parser.add_argument("--server", metavar="ws://HOST:PORT", help="create the table on a table server and say its code")
    parser.add_argument("--name", help="with --server: your name at the table")
    _common_options(parser)
    args = parser.parse_args(argv)
    if args.free_for_all and args.players == 2:
        parser.error("--free-for-all needs 4 players")
    rules = make_rules(args.players, teams=not args.free_for_all, mode="complex" if args.complex else "regular")
    try:
        seats = _seats(rules.seats, args.seats, args.names)
    except ValueError as error:
        parser.error(str(error))
    if args.server:
        from voicejack.app.join import host_remote

        return host_remote(args, rules, seats)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    state, _ = new_game(rules, seed=seed, seats=seats)
    return _run(state, args, announce_start=True)


def resume_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack resume", description="Continue a saved match exactly where it was left.")
    parser.add_argument("file", nargs="?", metavar="FILE.json", help="a saved table (default: the autosave)")
    _common_options(parser)
    args = parser.parse_args(argv)
    path = Path(args.file) if args.file else autosave_path()
    if not path.exists():
        print(f"voicejack resume: no saved match at {path}. Start one with: voicejack", file=sys.stderr)
        return EXIT_BAD_INPUT
    state = load_table_or_complain(str(path), parser.prog)
    if state is None:
        return EXIT_BAD_INPUT
    if args.save is None:
        args.save = str(path)
    return _run(state, args, announce_start=False, resumed_from=path)


def demo_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack demo", description="Bots only, narrated with sound: hear what the game sounds like.")
    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--free-for-all", action="store_true")
    parser.add_argument("--complex", action="store_true")
    parser.add_argument("--seed", type=int, help="seed for the first dealer and every shuffle")
    _common_options(parser)
    args = parser.parse_args(argv)
    rules = make_rules(args.players, teams=not args.free_for_all, mode="complex" if args.complex else "regular")
    seats = tuple(Seat(c, c.capitalize(), "bot") for c in rules.seats)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    state, _ = new_game(rules, seed=seed, seats=seats)
    if args.save is None:
        args.save = str(data_dir() / "demo.json")
    return _run(state, args, announce_start=True)


def _seats(colours: tuple[str, ...], kinds_text: str | None, names_text: str | None) -> tuple[Seat, ...]:
    kinds = [k.strip() for k in kinds_text.split(",")] if kinds_text else ["human"] + ["bot"] * (len(colours) - 1)
    names = [n.strip() for n in names_text.split(",")] if names_text else []
    if len(kinds) != len(colours):
        raise ValueError(f"--seats lists {len(kinds)} seats for {len(colours)} players")
    if names and len(names) != len(colours):
        raise ValueError(f"--names lists {len(names)} names for {len(colours)} players")
    seats = []
    for index, (colour, kind) in enumerate(zip(colours, kinds)):
        base = kind.split(":")[0]
        if base not in SEAT_KINDS or (base != "bot" and ":" in kind):
            raise ValueError(f"seat kind {kind!r} is not one of human, voice, keyboard, bot or bot:<level>")
        if base == "bot" and ":" in kind:
            from voicejack.bots import BOT_KINDS

            if kind not in BOT_KINDS:
                raise ValueError(f"unknown bot level in {kind!r} (levels: {', '.join(BOT_KINDS)})")
        stored = kind if base == "bot" else "human"
        name = names[index] if names and names[index] else ("You" if base != "bot" and kinds.count("human") == 1 and index == 0 else colour.capitalize())
        seats.append(Seat(colour, name, stored))
    return tuple(seats)


def _run(state: GameState, args: argparse.Namespace, announce_start: bool, resumed_from: Path | None = None) -> int:
    settings, warning = _settings_from(args)
    save_path = Path(args.save) if args.save else autosave_path()
    audio = None if args.no_sound else _open_audio(settings, args.record)
    presenter = Presenter(audio)
    if warning:
        presenter.say(warning, remember=False)
    hub = InputHub()
    humans = [seat for seat in state.seats if seat.kind == "human"]
    if humans:
        voice, reason = (None, "you asked for the keyboard") if args.keyboard else _open_voice(settings, presenter)
        if voice is not None:
            hub.add(voice)
            presenter.say(say("welcome.voice"), remember=False)
        else:
            presenter.say([say("welcome.keyboard"), say("why.keyboard", reason=reason)], remember=False)
        hub.add(KeyboardSource(sys.stdin))
    if resumed_from is not None:
        presenter.say(say("resumed", path=resumed_from), remember=False)
    match = Match(state, presenter, hub, MatchConfig(save_path, settings=settings, on_settings=_remember))
    try:
        outcome: Outcome = match.run(announce_start=announce_start)
        presenter.settle()
    finally:
        hub.close()
        presenter.close()
    return 0 if outcome.winner is not None or outcome.saved_to else 1


def _remember(settings: Settings) -> None:
    try:
        save_settings(settings)
    except OSError as error:
        print(f"voicejack: could not remember your settings ({error.strerror})", file=sys.stderr)


def _open_audio(settings: Settings, record: str | None) -> AudioOutput | None:
    try:
        from voicejack.audio.output import AudioOutput
    except ImportError as error:
        print(f"voicejack: sound is off ({error}); playing in text only.", file=sys.stderr)
        return None
    try:
        audio = AudioOutput(
            device=settings.output_device, record_path=record, headphones=settings.headphones,
            speech_rate=settings.speech_rate, speech_volume=settings.speech_volume, cue_volume=settings.cue_volume,
            on_text=None,  # the presenter prints every line itself
        )
    except OSError as error:  # an unwritable --record file
        print(f"voicejack: {error}; playing without sound.", file=sys.stderr)
        return None
    if not audio.has_device and record is None:
        audio.close()  # nobody would hear it: do not spend real time playing into nothing
        return None
    return audio


def _open_voice(settings: Settings, presenter: Presenter) -> tuple[VoiceSource | None, str]:
    """A microphone source when there is a microphone and a recogniser, else (None, why not).

    The microphone is ignored while the game speaks (unless on headphones).
    """
    try:
        from voicejack.table.voice import open_voice_source
    except (ImportError, OSError) as error:
        return None, f"speech recognition could not be loaded ({error})"
    return open_voice_source(settings, muted=presenter.is_speaking)
