"""A whole match in which the human seat speaks: espeak-ng says each answer, with noise, and the real
pocketsphinx recogniser hears it through the microphone's streaming code, with the grammar of the moment;
and "take that back" heard the same way."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from voicejack.engine import apply_move, legal_moves, legal_phrases, make_rules, new_game
from voicejack.engine.state import Seat
from voicejack.language import Command, CommandName, Grammar, Heard, Resolver
from voicejack.speech import make_recogniser
from voicejack.speech.audio import blocks
from voicejack.speech.corpus import espeak_available, make_clip, synthesise
from voicejack.speech.microphone import Listener
from voicejack.table.inputs import END_OF_INPUT, InputHub, Utterance
from voicejack.table.match import Match, MatchConfig
from voicejack.table.settings import Settings
from voicejack.tablefile import save_table

pytestmark = pytest.mark.skipif(not espeak_available(), reason="espeak-ng is not installed (see .ci/run)")


class SpokenScript:
    """Says each line aloud (synthesised, at 20 dB SNR) when the game listens, and recognises it live."""

    live = False

    def __init__(self, lines: Iterator[str], voices: tuple[str, ...] = ("en-us", "en")) -> None:
        self.lines = lines
        self.voices = itertools.cycle(voices)
        self.recogniser = make_recogniser("sphinx")
        self.listener = Listener(self.recogniser)
        self.said: list[str] = []
        self.heard: list[str] = []
        self._seed = 0

    def start(self, push) -> None:
        self.push = push
        self.recogniser.new_stream()

    def set_grammar(self, grammar: Grammar) -> None:
        line = next(self.lines, None)
        while line is not None and line not in grammar.phrases:
            line = next(self.lines, None)  # "yes" only answers a question: with none open it is not listened for
        if line is None:
            self.push(END_OF_INPUT)
            return
        self.recogniser.set_grammar(grammar)
        self._seed += 1
        clip = make_clip(synthesise(line, next(self.voices)), snr_db=20, seed=self._seed)
        result: Heard | None = None
        for heard in self.listener.feed_all(blocks(clip.samples)):
            result = heard
            break
        self.recogniser.reset()
        self.said.append(line)
        self.heard.append(result.text if result else "")
        self.push(Utterance(result if result is not None else Heard(""), grammar))

    def close(self) -> None:
        pass


SAME_MEANING = {
    "options": {"options", "my options", "moves"},
    "option one": {"option one", "one"},
    "yes": {"yes", "yep", "yeah"},
}


@pytest.mark.slow
def test_a_whole_match_played_by_voice(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=5)
    spoken = SpokenScript(itertools.islice(itertools.cycle(("options", "option one", "yes")), 900))
    hub = InputHub()
    hub.add(spoken)
    transcript = kit.Transcript()
    outcome = Match(state, transcript, hub, MatchConfig(tmp_path / "s.json")).run()
    assert outcome.winner is not None, "the match should be finished by voice alone"
    human_plays = [move.phrase for colour, move in state.history if colour == "red" and move.phrase.startswith("play")]
    assert len(human_plays) >= 10
    misses = [(said, heard) for said, heard in zip(spoken.said, spoken.heard) if heard not in SAME_MEANING[said]]
    print(f"{len(misses)} of {len(spoken.said)} utterances misheard:", misses[:40])
    assert len(misses) / len(spoken.said) <= 0.15, misses


def test_the_microphone_source_hears_a_command_on_its_own_thread(kit) -> None:
    """The table's voice source over the speech package's listening thread, fed as PortAudio would feed it."""
    from voicejack.engine import make_rules, new_game
    from voicejack.language import phrase_set
    from voicejack.speech.microphone import BlockQueue, VoiceInput
    from voicejack.table.voice import VoiceSource

    state, _ = new_game(make_rules(), seed=4)
    blocks_in = BlockQueue()
    source = VoiceSource(VoiceInput(make_recogniser("sphinx"), source=blocks_in).start())
    hub = InputHub()
    hub.add(source)
    try:
        grammar = phrase_set(state, state.turn)
        source.set_grammar(grammar)
        clip = make_clip(synthesise("read the board", "en-us"), snr_db=20, seed=7)
        for block in blocks(clip.samples):
            blocks_in.callback(block.reshape(-1, 1), len(block), None, None)
        heard = hub.listen(grammar, timeout=30)
    finally:
        hub.close()
    assert isinstance(heard, Utterance) and heard.heard.text == "read the board"
    assert heard.grammar == grammar and not heard.stale  # the grammar it was heard under came with it


def test_speech_heard_before_the_position_changed_arrives_stale(kit) -> None:
    """Said while the game listened for one position, recognised after it moved on: the hub marks it stale,
    so the match never resolves it as a move of the new position."""
    import time

    from voicejack.engine import apply_move, legal_moves, make_rules, new_game
    from voicejack.language import phrase_set
    from voicejack.speech.microphone import BlockQueue, VoiceInput
    from voicejack.table.voice import VoiceSource

    state, _ = new_game(make_rules(), seed=4)
    blocks_in = BlockQueue()
    source = VoiceSource(VoiceInput(make_recogniser("sphinx"), source=blocks_in).start())
    hub = InputHub()
    hub.add(source)
    try:
        before = phrase_set(state, state.turn)
        hub.expect(before)
        clip = make_clip(synthesise("read the board", "en-us"), snr_db=20, seed=7)
        chunks = list(blocks(clip.samples))
        half = len(chunks) // 2
        for block in chunks[:half]:
            blocks_in.callback(block.reshape(-1, 1), len(block), None, None)
        while not blocks_in._queue.empty():  # the listener has taken the first half, under the old grammar
            time.sleep(0.01)
        apply_move(state, legal_moves(state)[0])
        after = phrase_set(state, state.turn)
        assert after != before
        hub.expect(after)
        for block in chunks[half:]:
            blocks_in.callback(block.reshape(-1, 1), len(block), None, None)
        heard = None
        deadline = time.monotonic() + 30
        while heard is None and time.monotonic() < deadline:
            waiting = hub.waiting()
            heard = waiting[0] if waiting else None
            time.sleep(0.05)
    finally:
        hub.close()
    assert heard is not None and heard.heard.text == "read the board"
    assert heard.grammar == before and heard.stale


# ---------------------------------------------------------------------------- undo by voice


def _two_humans():
    state, _ = new_game(make_rules(2, False, "regular"), seed=1,
                        seats=(Seat("red", "Ann", "human"), Seat("green", "Bo", "human")))
    return state


def test_take_that_back_spoken_at_a_shared_device(tmp_path: Path, kit) -> None:
    state = _two_humans()
    save_table(state, tmp_path / "before.json")
    phrase = legal_phrases(state)[0]
    # One voice: this test is the undo flow at a shared device, not recognition accuracy (benchmarks/asr.py).
    # The en voice's "take that back" in this noise was heard right only when the decode ended 60 ms after it;
    # with the longer pause now needed in noise pocketsphinx alone hears an unsure "read my cards".
    spoken = SpokenScript(iter([phrase, "take that back"]), voices=("en-us",))
    hub = InputHub()
    hub.add(spoken)
    transcript = kit.Transcript()
    # "never": a clearly heard move is played without "yes or no?", so the second line answers no question
    Match(state, transcript, hub, MatchConfig(tmp_path / "s.json", settings=Settings(confirm="never"))).run(
        announce_start=False)
    assert spoken.heard == [phrase, "take that back"]
    assert any(line.startswith(f"Took back Bo's move: {phrase}.") for line in transcript.lines)
    save_table(state, tmp_path / "after.json")
    assert (tmp_path / "after.json").read_text() == (tmp_path / "before.json").read_text()


@pytest.mark.parametrize(("words", "voice"), [
    ("take that back", "en-us"), ("take that back", "en-us+m3"), ("take it back", "en"), ("take it back", "en-us"),
    ("undo my move", "en"), ("take back my move", "en+f3"),
])
def test_undo_is_heard_while_a_bot_is_to_play(words: str, voice: str) -> None:
    """The grammar the table listens with between a person's move and a bot's (commands only) holds undo."""
    state, _ = new_game(make_rules(4, True, "regular"), seed=8)
    while state.turn == "red":
        apply_move(state, legal_moves(state)[0])
    resolver = Resolver()
    grammar = resolver.phrase_set(state, "red")
    recogniser = make_recogniser("sphinx")
    recogniser.new_stream()
    recogniser.set_grammar(grammar)
    listener = Listener(recogniser)
    clip = make_clip(synthesise(words, voice), snr_db=20, seed=4)
    heard: Heard | None = next(iter(listener.feed_all(blocks(clip.samples))), None)
    assert heard is not None
    assert resolver.resolve(state, "red", heard) == Command(CommandName.UNDO), heard.text


@pytest.mark.parametrize("voice", ["en-us", "en", "en-gb-scotland", "en+f3", "en-us+m3"])
def test_two_is_never_heard_as_undo(voice: str) -> None:
    """A bare "undo" sounds like "two": it is typed only, so "two" said when the card is not in hand, or
    "and two", cannot take a move back."""
    state, _ = new_game(make_rules(4, True, "regular"), seed=8)
    resolver = Resolver()
    recogniser = make_recogniser("sphinx")
    recogniser.new_stream()
    recogniser.set_grammar(resolver.phrase_set(state, state.turn))
    listener = Listener(recogniser)
    for seed, words in enumerate(("two", "and two", "one two"), 3):
        clip = make_clip(synthesise(words, voice), snr_db=20, seed=seed)
        heard = next(iter(listener.feed_all(blocks(clip.samples))), None)
        recogniser.reset()
        if heard is not None and heard.text:
            assert resolver.resolve(state, state.turn, heard) != Command(CommandName.UNDO), (words, heard.text)


def test_when_the_listening_thread_fails_the_player_is_told_once_and_typing_goes_on(tmp_path: Path, kit) -> None:
    """Before, an error on the listening thread (here pocketsphinx refusing a grammar; a decoder or device
    error alike) only stopped the thread: the microphone went deaf without a word, and a player who cannot
    see the screen kept talking to nothing."""
    import io
    import time

    from voicejack.speech.microphone import BlockQueue, VoiceInput
    from voicejack.table.inputs import KeyboardSource
    from voicejack.table.voice import VoiceSource

    transcript = kit.Transcript()
    blocks_in = BlockQueue()
    voice = VoiceInput(make_recogniser("sphinx"), source=blocks_in)
    source = VoiceSource(voice.start(), presenter=transcript)
    hub = InputHub()
    hub.add(source)
    try:
        source.set_grammar(Grammar(("xyzzyq plugh",)))  # no word of it in the dictionary: refused
        blocks_in.callback(np.zeros((320, 1), np.int16), 320, None, None)
        deadline = time.monotonic() + 10
        while voice.error is None and time.monotonic() < deadline:
            time.sleep(0.02)
        told = [line for line in transcript.lines if line.startswith("Speech recognition is off:")]
        assert len(told) == 1 and told[0].endswith("Type your moves instead."), transcript.lines
        hub.add(KeyboardSource(io.StringIO("my cards\nquit\nyes\n"), live=False))
        Match(kit.two_player_state(seed=12), transcript, hub, MatchConfig(tmp_path / "s.json")).run(
            announce_start=False)
    finally:
        hub.close()
    assert any(line.startswith("You hold") for line in transcript.lines)
