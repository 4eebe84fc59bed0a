"""A whole match in which the human seat speaks: espeak-ng says each answer, with noise, and the real
pocketsphinx recogniser hears it through the microphone's streaming code, with the grammar of the moment."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from voicejack.language import Grammar, Heard
from voicejack.speech import make_recogniser
from voicejack.speech.audio import blocks
from voicejack.speech.corpus import espeak_available, make_clip, synthesise
from voicejack.speech.microphone import Listener
from voicejack.table.inputs import END_OF_INPUT, InputHub
from voicejack.table.match import Match, MatchConfig

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
        self.push(result if result is not None else Heard(""))

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
    assert isinstance(heard, Heard) and heard.text == "read the board"
