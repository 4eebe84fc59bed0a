"""`voicejack play`, `voicejack resume`, `voicejack demo` (and plain `voicejack`)."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from voicejack.app.common import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    CommandParser,
    add_table_options,
    add_think_option,
    load_table_or_complain,
    rules_from_options,
)
from voicejack.engine import GameState, Rules, new_game
from voicejack.engine.state import Seat
from voicejack.speech import BACKENDS
from voicejack.table.inputs import InputHub, KeyboardSource
from voicejack.table.match import Match, MatchConfig, Outcome
from voicejack.table.messages import say
from voicejack.table.presenter import Presenter
from voicejack.table.questions import ask_yes_no
from voicejack.table.seats import HUMAN, SeatKind
from voicejack.tablefile import load_table
from voicejack.table.settings import MAX_RATE, MIN_RATE, Settings, load_settings, save_settings

if TYPE_CHECKING:
    from voicejack.audio.output import AudioOutput
    from voicejack.table.voice import VoiceSource

HUMAN_ALIASES = ("voice", "keyboard")


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "voicejack"


def autosave_path() -> Path:
    return data_dir() / "autosave.json"


def _common_options(parser: argparse.ArgumentParser) -> None:
    sound = parser.add_argument_group("sound and speech")
    sound.add_argument("--rate", type=_ranged(int, MIN_RATE, MAX_RATE, "words a minute"),
                       help="speech rate in words a minute (default: remembered, else 175)")
    sound.add_argument("--brief", action="store_true", default=None, help="brief descriptions")
    sound.add_argument("--full", dest="brief", action="store_false", help="full descriptions (for learning)")
    sound.add_argument("--headphones", action="store_true", default=None, help="headphone spatialisation")
    sound.add_argument("--speakers", dest="headphones", action="store_false", help="loudspeaker panning")
    sound.add_argument("--mono", action="store_true", default=None,
                       help="the same sound in both ears (one earbud, or one good ear)")
    sound.add_argument("--stereo", dest="mono", action="store_false", help="directions between the ears (default)")
    sound.add_argument("--output-device", help="sound output device (see: voicejack devices)")
    sound.add_argument("--input-device", help="microphone (see: voicejack devices)")
    sound.add_argument("--record", metavar="FILE.wav", help="also write everything heard to a WAV file")
    sound.add_argument("--no-sound", action="store_true", help="text only: no speech, no cues")
    voice = parser.add_argument_group("input")
    voice.add_argument("--keyboard", action="store_true", help="type moves, even with a microphone")
    voice.add_argument("--backend", choices=BACKENDS, help="speech recogniser (sphinx+whisper: pocketsphinx checked "
                       "by Whisper tiny.en; sphinx+whisper+moonshine: and Moonshine base)")
    voice.add_argument("--confirm", choices=("auto", "always", "never"), help="when moves are confirmed")
    voice.add_argument("--silence-timeout", type=_ranged(float, 0.0, 86400.0, "seconds"), metavar="SECONDS",
                       help="a bot takes a human seat after this much silence (0: never)")
    voice.add_argument("--listen", choices=("open", "wake", "push"),
                       help="what the microphone acts on: open (everything, the default), wake (only what follows "
                            "the wake word), push (press Enter before each command); remembered")
    voice.add_argument("--wake-word", type=_wake_word, metavar="WORD",
                       help="the wake word of --listen wake (default: jackaroo)")
    voice.add_argument("--wake-sensitivity", type=_ranged(float, 0.0, 1.0), metavar="0..1",
                       help="how easily the wake word is taken: 0 only when said very clearly, 1 anything like it "
                            "(default 0.5)")
    voice.add_argument("--undo-seconds", type=_ranged(float, 0.0, 60.0, "seconds"), metavar="SECONDS",
                       help="after your move, how long a bot waits before playing so you can say undo "
                            "(default: remembered, else 2; 0: no pause, undo only until the next player acts)")
    parser.add_argument("--save", metavar="FILE.json", help="where save, quit and the autosave write")


Number = TypeVar("Number", int, float)


def _ranged(convert: Callable[[str], Number], low: Number, high: Number, unit: str = "") -> Callable[[str], Number]:
    """An argparse type: a number (``int`` or ``float``, as ``convert``) from ``low`` to ``high``; a usage error
    naming the range otherwise."""
    kind = "a whole number" if convert is int else "a number"
    what = f"{kind} of {unit}" if unit else f"{kind} from {low:g} to {high:g}"

    def parse(text: str) -> Number:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not from {low:g} to {high:g}{' ' + unit if unit else ''}")
        return value

    return parse


def _settings_from(args: argparse.Namespace) -> tuple[Settings, str | None]:
    settings, warning = load_settings()
    changes: dict[str, Any] = {}
    for option, key in (("rate", "speech_rate"), ("brief", "brief"), ("headphones", "headphones"), ("mono", "mono"),
                        ("output_device", "output_device"), ("input_device", "input_device"),
                        ("backend", "backend"), ("confirm", "confirm"), ("silence_timeout", "silence_timeout"),
                        ("listen", "listen"), ("wake_word", "wake_word"), ("wake_sensitivity", "wake_sensitivity"),
                        ("undo_seconds", "undo_seconds")):
        value = getattr(args, option, None)
        if value is not None:
            changes[key] = value
    return dataclasses.replace(settings, **changes), warning


def _wake_word(text: str) -> str:
    from voicejack.speech.listening import WakeWord, WakeWordError

    try:
        return WakeWord.of(text).word
    except WakeWordError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def play_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack play", description="Start a match: by default you against three bots, in teams.")
    add_table_options(parser)
    parser.add_argument("--seats", help="seat kinds in seat order, e.g. human,bot:hard,human,bot "
                        "(human, voice, keyboard, bot, bot:random|easy|medium|hard|expert); default: you and bots")
    add_think_option(parser)
    parser.add_argument("--names", help="seat names in seat order, e.g. Ann,Bot,Sam,Bot")
    parser.add_argument("--seed", type=int, help="seed for the first dealer and every shuffle")
    parser.add_argument("--server", metavar="ws://HOST:PORT", help="create the table on a table server and say its code")
    parser.add_argument("--name", help="with --server: your name at the table")
    _common_options(parser)
    args = parser.parse_args(argv)
    rules, seats = table_from_options(parser, args)
    if args.server:
        from voicejack.app.join import host_remote

        return host_remote(args, rules, seats)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    state, _ = new_game(rules, seed=seed, seats=seats)
    return _run(state, args, announce_start=True, ask_before_replacing=True)


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
    add_table_options(parser, timer=False)
    parser.add_argument("--seed", type=int, help="seed for the first dealer and every shuffle")
    _common_options(parser)
    args = parser.parse_args(argv)
    rules = rules_from_options(parser, args)
    seats = tuple(Seat(c, c.capitalize(), "bot") for c in rules.seats)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    state, _ = new_game(rules, seed=seed, seats=seats)
    if args.save is None:
        args.save = str(data_dir() / "demo.json")
    return _run(state, args, announce_start=True)


def table_from_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[Rules, tuple[Seat, ...]]:
    """The rules and the seats that --players/--rules/--seats/--names/--think ask for; a one-line usage error otherwise."""
    from voicejack.bots.factory import with_think

    rules = rules_from_options(parser, args)
    try:
        seats = _seats(rules.seats, args.seats, args.names)
    except ValueError as error:
        parser.error(str(error))
    think = getattr(args, "think", None)
    if think is None:
        return rules, seats
    # The budget is written into the seat kind, so a saved match resumes with it and a server table gets it too.
    return rules, tuple(dataclasses.replace(seat, kind=with_think(seat.kind, think)) for seat in seats)


def _seats(colours: tuple[str, ...], kinds_text: str | None, names_text: str | None) -> tuple[Seat, ...]:
    kinds = [k.strip() for k in kinds_text.split(",")] if kinds_text else ["human"] + ["bot"] * (len(colours) - 1)
    names = [n.strip() for n in names_text.split(",")] if names_text else []
    if len(kinds) != len(colours):
        raise ValueError(f"--seats lists {len(kinds)} seats for {len(colours)} players")
    if names and len(names) != len(colours):
        raise ValueError(f"--names lists {len(names)} names for {len(colours)} players")
    parsed = [_seat_kind(kind) for kind in kinds]
    alone = sum(not kind.bot for kind in parsed) == 1
    seats = []
    for index, (colour, kind) in enumerate(zip(colours, parsed)):
        default_name = "You" if not kind.bot and alone and index == 0 else colour.capitalize()
        seats.append(Seat(colour, names[index] if names and names[index] else default_name, str(kind)))
    return tuple(seats)


def _seat_kind(text: str) -> SeatKind:
    """A --seats entry: "voice" and "keyboard" are people too (how they play is chosen at the table)."""
    if text.strip().lower() in HUMAN_ALIASES:
        return HUMAN
    try:
        return SeatKind.parse(text)
    except ValueError as error:
        raise ValueError(f"{error}; a person's seat is human, voice or keyboard") from None


def _run(state: GameState, args: argparse.Namespace, announce_start: bool, resumed_from: Path | None = None,
         ask_before_replacing: bool = False) -> int:
    settings, warning = _settings_from(args)
    if any(getattr(args, option, None) is not None for option in ("listen", "wake_word", "wake_sensitivity")):
        _remember(settings)  # how the microphone listens is chosen before the game: keep it for the next run
    save_path = Path(args.save) if args.save else autosave_path()
    audio, sound_note = (None, None) if args.no_sound else _open_audio(settings, args.record)
    presenter = Presenter(audio)
    for note in (sound_note, warning):
        if note:
            presenter.say(note, remember=False)
    hub = InputHub()
    humans = [seat for seat in state.seats if seat.kind == str(HUMAN)]
    if humans:
        voice, reason = (None, "") if args.keyboard else _open_voice(settings, presenter)
        brief = ".brief" if settings.brief else ""
        if voice is not None:
            hub.add(voice)
            from voicejack.table.listening import mode_intro

            presenter.say([say("welcome.voice" + brief), mode_intro(voice.gate, settings.brief)], remember=False)
        else:
            # Why typing is only news when the player did not ask for the keyboard.
            why = [say("why.keyboard", reason=reason)] if reason else []
            presenter.say([say("welcome.keyboard" + brief)] + why, remember=False)
        hub.add(KeyboardSource(sys.stdin))
    outcome: Outcome | None = None
    try:
        if ask_before_replacing and humans:
            saved = _unfinished_save(save_path)
            if saved is not None and not _replace(presenter, hub, save_path, settings):
                presenter.say(say("resume_instead", resume=_resume_hint(save_path)), remember=False)
                state, announce_start, resumed_from = saved, False, save_path
                humans = [seat for seat in state.seats if seat.kind == str(HUMAN)]
        seats = state.seats
        while True:
            if resumed_from is not None:
                presenter.say(say("resumed", path=resumed_from), remember=False)
            config = MatchConfig(save_path, settings=settings,
                                 on_settings=lambda changed: _remember(changed, presenter),
                                 resume_hint=_resume_hint(save_path))
            match = Match(state, presenter, hub, config)
            outcome = match.run(announce_start=announce_start, resumed=resumed_from is not None)
            presenter.settle()
            settings = match.settings
            if outcome.interrupted:
                return EXIT_INTERRUPTED
            if outcome.winner is None or not humans or hub.ended:
                break
            if not ask_yes_no(presenter, hub, say("another"), settings.silence_timeout or None):
                presenter.say(say("goodbye"), remember=False)
                presenter.settle()
                break
            state, _ = new_game(state.rules, seed=int.from_bytes(os.urandom(4), "little"), seats=seats)
            announce_start, resumed_from = True, None
    except KeyboardInterrupt:
        presenter.stop()  # a second Ctrl-C, while the first one's message is said, silences it at once
        if outcome is None or not outcome.interrupted:  # between matches, or at the question before one
            presenter.say(say("interrupted.idle"), remember=False)
            presenter.settle(timeout=5.0)
        return EXIT_INTERRUPTED
    finally:
        hub.close()
        presenter.close()
    return 0 if outcome is None or outcome.winner is not None or outcome.saved_to else 1


def _unfinished_save(path: Path) -> GameState | None:
    """The match saved at ``path`` when it is unfinished (an unreadable file holds no match to lose)."""
    if not path.exists():
        return None
    try:
        saved = load_table(path)
    except (OSError, ValueError, RecursionError):
        return None
    return saved if saved.winner is None else None


def _replace(presenter: Presenter, hub: InputHub, path: Path, settings: Settings) -> bool:
    """Ask before a new match overwrites an unfinished one; anything but a clear yes keeps it."""
    return ask_yes_no(presenter, hub, say("overwrite", path=path), settings.silence_timeout or None) is True


def _resume_hint(save_path: Path) -> str:
    return "voicejack resume" if save_path == autosave_path() else f"voicejack resume {save_path}"


def _remember(settings: Settings, presenter: Presenter | None = None) -> None:
    """Keep ``settings`` for the next run; when that fails, the players are told (not only stderr)."""
    try:
        save_settings(settings)
    except OSError as error:
        if presenter is None:
            print(f"voicejack: could not remember your settings ({error.strerror})", file=sys.stderr)
        else:
            presenter.say(say("settings_unsaved", reason=error.strerror or error), remember=False)


def _open_audio(settings: Settings, record: str | None) -> tuple[AudioOutput | None, str | None]:
    """The sound output and a plain sentence about it for the player, if one is needed.

    With no sound card, a recording is rendered offline (as fast as it can be made); without one
    to make either, the match is text only.
    """
    try:
        from voicejack.audio.output import AudioOutput
    except ImportError as error:
        print(f"voicejack: sound is off ({error}); playing in text only.", file=sys.stderr)
        return None, None
    notices: list[str] = []
    opening = [True]

    def notify(message: str) -> None:
        """Held while the output opens (a missing sound card is then said plainly instead), then printed."""
        if opening[0]:
            notices.append(message)
        else:
            _to_stderr(message)

    try:
        audio = _make_audio(AudioOutput, settings, record, notify, realtime=True)
        opening[0] = False
        if not audio.has_device:
            audio.close()  # nobody would hear it: do not spend real time playing into nothing
            if record is None:
                return None, say("no_sound_card")
            audio = _make_audio(AudioOutput, settings, record, _to_stderr, realtime=False)
            return audio, say("no_sound_card.record", path=record)
    except OSError as error:  # an unwritable --record file
        print(f"voicejack: {error}; playing without sound.", file=sys.stderr)
        return None, None
    for notice in notices:
        _to_stderr(notice)
    return audio, None


def _make_audio(kind: type[AudioOutput], settings: Settings, record: str | None, notify: Callable[[str], None],
                realtime: bool) -> AudioOutput:
    return kind(
        device=settings.output_device, record_path=record, headphones=settings.headphones,
        speech_rate=settings.speech_rate, speech_volume=settings.speech_volume, cue_volume=settings.cue_volume,
        on_text=None,  # the presenter prints every line itself
        notify=notify, realtime=realtime, mono=settings.mono,
    )


def _to_stderr(message: str) -> None:
    print(f"voicejack: {message}", file=sys.stderr, flush=True)


def _open_voice(settings: Settings, presenter: Presenter) -> tuple[VoiceSource | None, str]:
    """A microphone source when there is a microphone and a recogniser, else (None, why not).

    The microphone is ignored while the game speaks (unless on headphones).
    """
    try:
        from voicejack.table.voice import open_voice_source
    except (ImportError, OSError) as error:
        return None, f"speech recognition could not be loaded ({error})"
    return open_voice_source(settings, muted=presenter.is_speaking, presenter=presenter)
