"""Listening modes at the table: espeak-ng speaks each line into the microphone's listening path (real
pocketsphinx, the gate the player's settings ask for), and the match answers only what the gate lets through.
Also what the players are told: the mode at the start and in "help", the tick, and stopping and starting."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from voicejack.language import Grammar, Heard
from voicejack.speech import make_recogniser
from voicejack.speech.audio import BLOCK_SAMPLES, blocks
from voicejack.speech.corpus import espeak_available, make_clip, synthesise
from voicejack.speech.listening import GateEvent, ListenMode
from voicejack.speech.microphone import BlockQueue, VoiceInput
from voicejack.table.inputs import END_OF_INPUT, InputHub, KeyboardSource, ScriptSource, Utterance
from voicejack.table.listening import LISTENING_CUE, announcer, make_gate, mode_help, mode_intro
from voicejack.table.match import Match, MatchConfig
from voicejack.table.presenter import Presenter
from voicejack.table.settings import Settings, load_settings, save_settings
from voicejack.table.voice import VoiceSource

ENTER = "<enter>"  # the player presses Enter on an empty line (the push-to-talk key)

needs_espeak = pytest.mark.skipif(not espeak_available(), reason="espeak-ng is not installed (see .ci/run)")


class TalkingTable:
    """Says the next line each time the game listens, through VoiceInput with the gate of ``settings``.

    A line the gate drops never reaches the game, so the next one is said at once, as talk goes on at a
    real table; ``ignored`` keeps them. ``typed:`` lines are typed, ENTER presses the push-to-talk key."""

    live = False

    def __init__(self, lines: list[str], settings: Settings, presenter: Presenter) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.recogniser = make_recogniser("sphinx")
        self.gate = make_gate(settings, self.recogniser, presenter)
        self.voice = VoiceInput(self.recogniser, source=BlockQueue(), gate=self.gate)
        self.ignored: list[str] = []
        self.heard: list[str] = []
        self._seed = 0

    def start(self, push) -> None:
        self.push = push
        self.recogniser.new_stream()

    def set_grammar(self, grammar: Grammar) -> None:
        self.voice.set_grammar(grammar)
        for line in self.lines:
            if line == ENTER:
                self.push(Utterance(Heard("", typed=True)))  # the hub takes it as the key, in push mode
                continue
            if line.startswith("typed:"):
                self.push(Utterance(Heard(line.removeprefix("typed:"), typed=True)))
                return
            self._seed += 1
            clip = make_clip(synthesise(line, "en-us"), snr_db=20, seed=self._seed)
            for block in blocks(clip.samples, BLOCK_SAMPLES):
                result = self.voice.hear_block(block)
                if result is not None:
                    self.heard.append(line)
                    self.push(Utterance(*result))
                    return
            self.ignored.append(line)
        self.push(END_OF_INPUT)

    def close(self) -> None:
        pass


def play(kit, tmp_path: Path, mode: str, lines: list[str]) -> tuple[TalkingTable, str]:
    transcript = kit.Transcript()
    table = TalkingTable(lines, Settings(listen=mode), transcript)
    hub = InputHub()
    hub.add(table)
    Match(kit.two_player_state(seed=5), transcript, hub, MatchConfig(tmp_path / "s.json")).run()
    return table, transcript.text


def after(text: str, marker: str) -> str:
    assert marker in text, text
    return text.split(marker, 1)[1]


@needs_espeak
def test_stop_listening_by_voice_ignores_the_microphone_until_start_listening(kit, tmp_path: Path) -> None:
    table, text = play(kit, tmp_path, "open", ["stop listening", "whose turn is it", "my cards", "start listening",
                                               "whose turn is it"])
    assert table.ignored == ["whose turn is it", "my cards"]
    stopped = after(text, "I have stopped listening to the microphone. To bring me back, say start listening")
    resumed = after(stopped, "Listening again.")
    assert "Your cards" not in stopped and "your turn" in resumed.lower()


@needs_espeak
def test_wake_mode_at_the_table(kit, tmp_path: Path) -> None:
    table, text = play(kit, tmp_path, "wake", [
        "whose turn is it",                      # chatter at the table: nothing happens at all
        "jackaroo, whose turn is it",            # answered
        "jackaroo, stop listening",
        "jackaroo, my cards",                    # ignored: stopped
        "start listening",                       # ignored: the wake word comes first
        "jackaroo, start listening",
    ])
    assert table.ignored == ["whose turn is it", "jackaroo, my cards", "start listening"]
    assert "say Jackaroo, start listening, or type start listening" in text
    assert "Listening again." in text and "didn't catch" not in text.lower()


@needs_espeak
def test_push_to_talk_at_the_table(kit, tmp_path: Path) -> None:
    table, text = play(kit, tmp_path, "push", ["whose turn is it", ENTER, "my cards", "whose turn is it"])
    assert table.heard == ["my cards"] and table.ignored == ["whose turn is it", "whose turn is it"]
    opened = after(text, "Listening.")  # the open signal (in words: this presenter has no sound)
    assert "You hold" in opened and "Microphone closed" not in opened
    assert "I heard nothing" not in text  # the key is not an empty command


def test_typed_stop_and_start_listening_pause_the_microphone(kit, tmp_path: Path) -> None:
    """Typing keeps working while the microphone is ignored, and brings it back."""
    gate = make_gate(Settings())
    hub = InputHub()
    hub.add(ScriptSource(["stop listening", "start listening", "start listening", "quit", "yes"]))
    hub.add(VoiceSource(VoiceInput(make_recogniser("sphinx"), source=BlockQueue(), gate=gate)))
    transcript = kit.Transcript()
    Match(kit.two_player_state(seed=5), transcript, hub, MatchConfig(tmp_path / "s.json")).run()
    text = transcript.text
    assert "I have stopped listening to the microphone." in text
    assert "Listening again." in after(text, "I have stopped listening")
    assert "I am listening already." in after(text, "Listening again.")
    assert not gate.paused


def test_without_a_microphone_stop_listening_says_typing_goes_on(kit, tmp_path: Path) -> None:
    _, _, transcript = kit.run_match(kit.two_player_state(seed=5), ["stop listening", "quit", "yes"],
                                     tmp_path / "s.json")
    assert "No microphone is in use, so there is nothing to stop or start; typing works as always." in transcript.text


@pytest.mark.parametrize("mode,said", [
    ("open", "Say stop listening to make me ignore the microphone"),
    ("wake", "Start each command with Jackaroo."),
    ("push", "Press Enter before each command."),
])
def test_help_says_how_the_microphone_listens(kit, tmp_path: Path, mode: str, said: str) -> None:
    hub = InputHub()
    hub.add(ScriptSource(["help", "quit", "yes"]))
    gate = make_gate(Settings(listen=mode))
    hub.add(VoiceSource(VoiceInput(make_recogniser("sphinx"), source=BlockQueue(), gate=gate)))
    transcript = kit.Transcript()
    Match(kit.two_player_state(seed=5), transcript, hub, MatchConfig(tmp_path / "s.json")).run()
    assert said in after(transcript.text, "Say or type a move")


def test_the_mode_and_how_to_change_it_are_said_at_the_start() -> None:
    wake = make_gate(Settings(listen="wake", wake_word="Jackaroo"))
    assert mode_intro(wake) == ("Say Jackaroo before each command, like: Jackaroo, read the board. Or say Jackaroo, "
                                "wait for the tick, and then the command. I ignore everything else. "
                                "The option listen changes this.")
    assert "press Enter" in mode_intro(make_gate(Settings(listen="push")))
    assert "listen wake, or listen push" in mode_intro(make_gate(Settings()))
    assert mode_intro(wake, brief=True) == "Say Jackaroo first."
    assert mode_intro(None) == "" and mode_help(None) == ""  # typing only: nothing to tell


def test_play_says_the_mode_after_the_welcome(tmp_path: Path, monkeypatch, capsys) -> None:
    """`voicejack play --listen push`: the player hears how to talk before the first move."""
    from voicejack.app import play as play_app

    def fake_voice(settings: Settings, presenter: Presenter):
        gate = make_gate(settings, None, presenter)
        return VoiceSource(VoiceInput(make_recogniser("sphinx"), source=BlockQueue(), gate=gate)), ""

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(play_app, "_open_voice", fake_voice)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\nyes\n"))
    assert play_app.play_main(["--no-sound", "--seed", "1", "--listen", "push"]) in (0, 1)
    printed = capsys.readouterr().out
    welcome = after(printed, "Speak your moves, for example: play nine red two. Say help at any time.")
    assert welcome.lstrip().startswith("To talk, press Enter, wait for the tick, and say one command.")
    assert load_settings(tmp_path / "config" / "voicejack" / "settings.json")[0].listen == "push"  # remembered


def test_the_gate_opening_is_a_tick_beside_the_speech_and_closing_on_silence_is_said(kit) -> None:
    audio = kit.FakeAudio()
    lines: list[str] = []
    presenter = Presenter(audio, write=lines.append)
    gate = make_gate(Settings(listen="push"), None, presenter)
    tell = announcer(presenter, gate)
    presenter.say("A long sentence the game is saying.")
    tell(GateEvent.OPENED)
    assert [entry[1:3] for entry in audio.log][-2:] == [("stop", ""), ("cue", LISTENING_CUE)]
    assert lines == ["A long sentence the game is saying."]  # nothing printed: the tick is the signal
    tell(GateEvent.CLOSED)
    assert len(lines) == 1  # nothing to say: the game's answer follows
    tell(GateEvent.TIMED_OUT)
    assert lines[1:] == ["Microphone closed. Press Enter to talk."]


def test_the_empty_line_opens_the_microphone_only_in_push_mode() -> None:
    for mode, opened in (("push", True), ("open", False)):
        gate = make_gate(Settings(listen=mode))
        hub = InputHub()
        hub.add(VoiceSource(VoiceInput(make_recogniser("sphinx"), source=BlockQueue(), gate=gate)))
        hub.add(KeyboardSource(io.StringIO("\n"), live=False))
        heard = hub.listen(Grammar(("help",)), timeout=0.2)
        assert gate.waiting_for_command is opened
        assert (heard is None) is opened  # in open mode the empty line is heard ("I heard nothing")
        hub.close()


def test_the_listening_settings_are_remembered(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    save_settings(Settings(listen="wake", wake_word="computer", wake_sensitivity=0.7), path)
    loaded, warning = load_settings(path)
    assert (loaded.listen, loaded.wake_word, loaded.wake_sensitivity, warning) == ("wake", "computer", 0.7, None)
    assert make_gate(Settings(listen="shout")).mode is ListenMode.OPEN  # a hand-edited file never stops the game


def test_a_setting_that_cannot_be_kept_is_said_not_only_printed_to_stderr(tmp_path: Path, monkeypatch, capsys) -> None:
    """"speak slower" works for the match, but the settings file cannot be written: before, only stderr said
    so, which a player listening to the game never hears."""
    from voicejack.app import play as play_app

    blocked = tmp_path / "config"
    blocked.write_text("a file where the settings folder should be")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocked))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO("speak slower\nquit\nyes\n"))
    assert play_app.play_main(["--no-sound", "--keyboard", "--seed", "1"]) in (0, 1)
    printed = capsys.readouterr().out
    assert "Speech rate 150 words a minute." in printed
    assert "Your settings could not be kept for next time (Not a directory); they hold until you quit." in printed
