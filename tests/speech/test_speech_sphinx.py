"""pocketsphinx end to end: espeak-ng voices, noise, real game grammars, the microphone's streaming path."""

from __future__ import annotations

import threading
import wave
from pathlib import Path

import numpy as np
import pytest
from speech_helpers import (
    as_callback_blocks,
    behind_own_marble,
    clip,
    grammar_of,
    random_positions,
    speech,
)

from voicejack.engine import Move, legal_moves
from voicejack.language import (
    Command,
    Confirm,
    Grammar,
    Heard,
    NotUnderstood,
    NotUnderstoodCode,
    phrase_set,
    resolve,
)
from voicejack.speech import recognise_file, recognise_samples
from voicejack.speech.audio import BLOCK_SAMPLES, write_wav
from voicejack.speech.corpus import make_clip
from voicejack.speech.microphone import BlockQueue, Listener
from voicejack.speech.recogniser import EARLY_END_NOISY, GrammarError, Recogniser
from voicejack.speech.sphinx import SphinxRecogniser, word_levels
from voicejack.tablefile import table_from_dict


@pytest.fixture(scope="module")
def recogniser() -> SphinxRecogniser:
    return SphinxRecogniser()


def hear_through_callback(recogniser: SphinxRecogniser, grammar: Grammar, samples: np.ndarray) -> Heard | None:
    """Deliver samples exactly as the InputStream callback does (from another thread), then listen."""
    recogniser.new_stream()
    recogniser.set_grammar(grammar)
    source = BlockQueue()
    blocks = as_callback_blocks(samples)

    def audio_thread() -> None:
        for block in blocks:
            source.callback(block, len(block), None, None)

    thread = threading.Thread(target=audio_thread)
    thread.start()
    heard = Listener(recogniser).listen(source, timeout=10.0)
    thread.join()
    recogniser.reset()
    return heard


def test_it_is_a_recogniser(recogniser: SphinxRecogniser) -> None:
    assert isinstance(recogniser, Recogniser)
    assert recogniser.name == "sphinx"


# Moves from real positions, different voices and noise: each must come back as that very move.
CASES = [
    ("en-us", None),
    ("en", 20.0),
    ("en-us+m3", 20.0),
    ("en-us+f2", None),
    ("en-us", 10.0),
    ("en-gb-scotland", 20.0),
]


@pytest.mark.parametrize("index,voice,snr", [(i, v, s) for i, (v, s) in enumerate(CASES)])
def test_a_spoken_legal_move_resolves_to_that_move(recogniser: SphinxRecogniser, index: int, voice: str, snr: float | None) -> None:
    state = random_positions(len(CASES), seed=11)[index]
    move = sorted(legal_moves(state), key=lambda m: m.phrase)[index % len(legal_moves(state))]
    grammar = grammar_of(state)
    assert move.phrase in grammar.phrases

    heard = hear_through_callback(recogniser, grammar, clip(move.phrase, voice, snr, seed=index))

    assert heard is not None
    assert heard.text == move.phrase
    assert len(heard.word_confidences) == len(heard.text.split())
    assert all(0.0 <= c <= 1.0 for c in heard.word_confidences)
    assert move.phrase not in heard.alternatives
    result = resolve(state, state.turn, heard)
    assert result == move or (isinstance(result, Confirm) and result.move == move)


def test_a_command_is_heard_as_that_command(recogniser: SphinxRecogniser) -> None:
    state = random_positions(1, seed=5)[0]
    heard = hear_through_callback(recogniser, grammar_of(state), clip("read the board", "en-us", 20.0, seed=3))
    assert heard is not None and heard.text == "read the board"
    assert isinstance(resolve(state, state.turn, heard), Command)


def test_chatter_outside_the_grammar_is_never_played_as_a_move(recogniser: SphinxRecogniser) -> None:
    moves_only = Grammar(("play nine red two", "play king out", "play four blue one", "burn hand"))
    for seed, sentence in enumerate(("pass me the salt please", "what a lovely day", "hold on a second")):
        heard = hear_through_callback(recogniser, moves_only, clip(sentence, "en-us", None, seed=seed))
        assert heard is not None
        # Either nothing, or a reading so weak the command language must not act on it without asking.
        assert heard.text == "" or min(heard.word_confidences) < 0.6


@pytest.mark.parametrize(("said", "reason"), [
    ("play seven red two seven", "Red 2 can't walk seven: your red 1 is in the way on cell 10."),
    ("play seven red two", "Red 2 can't walk seven: your red 1 is in the way on cell 10."),
    ("play nine red two", "Red 2 can't walk nine: your red 1 is in the way on cell 10."),
])
@pytest.mark.parametrize("voice", ["en-us", "en-gb-scotland"])
def test_an_illegal_move_said_clearly_is_refused_with_its_reason_never_heard_as_another(
        recogniser: SphinxRecogniser, said: str, reason: str, voice: str) -> None:
    """Issue 12: before, the grammar held only legal moves, so "play nine red two" came back as "play nine red
    one" (the nearest legal move, or "not sure") and "play seven red two seven" as nothing ("I didn't hear
    anything"); with another voice or the Whisper check, as "play seven red two one", played at once."""
    state = behind_own_marble()
    heard = hear_through_callback(recogniser, grammar_of(state), clip(said, voice, 20.0, seed=len(said)))
    assert heard is not None
    result = resolve(state, state.turn, heard)
    assert isinstance(result, NotUnderstood) and result.refused, (heard.text, result)
    assert result.reason == reason


@pytest.mark.parametrize("said", ["play nine red one", "play five red two", "play seven red one"])
@pytest.mark.parametrize("voice", ["en-us", "en-gb-scotland"])
def test_a_move_said_out_of_turn_is_refused_as_not_your_turn(recogniser: SphinxRecogniser, said: str,
                                                            voice: str) -> None:
    """Before, the grammar of a player not to act held commands only: "play five red two" came back as "leave
    the table", "play nine red one" as "read my cards", and nobody said it was not their turn."""
    state = behind_own_marble(turn="green")
    heard = hear_through_callback(recogniser, phrase_set(state, "red"),
                                  clip(said, voice, 20.0, seed=len(said)))
    assert heard is not None
    result = resolve(state, "red", heard)
    assert isinstance(result, NotUnderstood) and result.code is NotUnderstoodCode.NOT_YOUR_TURN, (heard, result)


def test_each_word_comes_with_its_level_against_the_loudest_word() -> None:
    """A word's level is the loud part of its span (the 90th percentile of its 10 ms frames), so the quiet
    edges a span takes in do not pull it down; the loudest word is at 0 dB."""
    rng = np.random.default_rng(2)
    loud, quiet = rng.standard_normal(3200) * 3000, rng.standard_normal(3200) * 300
    audio = np.concatenate([loud, np.zeros(800), quiet]).astype(np.int16)
    assert word_levels(audio, [(0, 24), (20, 44)]) == pytest.approx((0.0, -20.0), abs=0.5)


def test_a_clear_command_is_heard_with_every_word_at_about_the_same_level(recogniser: SphinxRecogniser) -> None:
    grammar = Grammar(("read the board", "my cards", "what can i say"))
    heard = recognise_samples(clip("what can i say", "en-us", seed=3), grammar, recogniser)
    assert heard.text == "what can i say" and len(heard.word_levels) == 4
    assert max(heard.word_levels) == 0.0 and min(heard.word_levels) > -9.0


class _Gate:
    """A front end that passes the microphone's samples through as they are, or passes silence."""

    def __init__(self, open_: bool) -> None:
        self.open = open_
        self.samples = 0
        self.new_streams = 0

    def process(self, samples: np.ndarray) -> np.ndarray:
        self.samples += len(samples)
        passed = np.asarray(samples, dtype=np.int16).copy()
        return passed if self.open else np.zeros_like(passed)

    def flush(self) -> np.ndarray:
        return np.zeros(0, dtype=np.int16)

    def reset(self) -> None:
        self.new_streams += 1


def test_another_front_end_stands_where_the_noise_reducer_was() -> None:
    """benchmarks/asr.py --front-end: pocketsphinx hears what the given front end hands it, nothing else."""
    grammar = grammar_of(random_positions(1, seed=5)[0])
    samples = clip("read the board", "en-us", None, seed=3)
    passing, muting = _Gate(open_=True), _Gate(open_=False)

    def hear_all(front_end: _Gate) -> list[str]:
        recogniser = SphinxRecogniser(denoise=front_end)
        recogniser.new_stream()
        recogniser.set_grammar(grammar)
        return [h.text for h in Listener(recogniser).feed_all(as_callback_blocks(samples))]

    assert hear_all(passing) == ["read the board"]
    assert passing.samples == len(samples) and passing.new_streams == 1
    assert hear_all(muting) == []
    assert muting.samples == len(samples)


def test_two_utterances_in_one_stream_give_two_results(recogniser: SphinxRecogniser) -> None:
    grammar = Grammar(("play king out", "burn hand", "repeat"))
    pause = np.zeros(16_000, dtype=np.int16)
    samples = np.concatenate([clip("play king out", seed=1), pause, clip("burn hand", seed=2)])
    samples = (samples + np.random.default_rng(0).normal(0, 40, len(samples))).astype(np.int16)
    recogniser.new_stream()
    recogniser.set_grammar(grammar)
    heard = list(Listener(recogniser).feed_all(as_callback_blocks(samples[:, None].ravel())))
    assert [h.text for h in heard] == ["play king out", "burn hand"]


def test_a_grammar_switch_mid_utterance_waits_for_the_utterance_to_end(recogniser: SphinxRecogniser) -> None:
    before = Grammar(("play king out", "burn hand"))
    after = Grammar(("repeat", "help"))
    samples = clip("play king out", seed=4)
    recogniser.new_stream()
    recogniser.set_grammar(before)
    results: list[Heard] = []
    switched = False
    for block in as_callback_blocks(samples):
        heard = recogniser.accept(block[:, 0])
        if heard is not None:
            results.append(heard)
        if recogniser.in_utterance and not switched:
            recogniser.set_grammar(after)  # the table moved on while the player was still talking
            switched = True
            assert recogniser.grammar == before and recogniser.pending_grammar == after
    final = recogniser.finish()
    if final is not None:
        results.append(final)
    assert switched
    assert [h.text for h in results] == ["play king out"]  # judged by the grammar it was spoken under
    assert recogniser.grammar == after and recogniser.pending_grammar is None
    # And the new grammar is the one used next.
    heard = hear_through_callback(recogniser, after, clip("repeat", seed=5))
    assert heard is not None and heard.text == "repeat"


def test_words_missing_from_the_dictionary_are_reported_and_their_phrases_left_out(recogniser: SphinxRecogniser) -> None:
    grammar = Grammar(("play king out", "play zorblax out"))
    heard = hear_through_callback(recogniser, grammar, clip("play king out", seed=6))
    assert recogniser.missing_words == ("zorblax",)
    assert heard is not None and heard.text == "play king out"


def test_a_grammar_with_nothing_recognisable_is_refused(recogniser: SphinxRecogniser) -> None:
    with pytest.raises(GrammarError, match="zorblax"):
        recogniser.set_grammar(Grammar(("zorblax", "quuxly zorblax")))
    with pytest.raises(GrammarError):
        recogniser.set_grammar(Grammar(()))


def test_listening_needs_a_grammar_first() -> None:
    fresh = SphinxRecogniser()
    with pytest.raises(GrammarError, match="set_grammar"):
        for block in as_callback_blocks(clip("play king out", seed=7)):
            fresh.accept(block[:, 0])


def test_recognise_file_takes_any_wav_shape(tmp_path: Path) -> None:
    samples = clip("play nine red two", "en-us+m3", 20.0, seed=8)
    # Write it as 22.05 kHz stereo, as a phone recording might be.
    from voicejack.speech.audio import resample, to_int16

    upsampled = to_int16(resample(samples / 32768.0, 16_000, 22_050))
    path = tmp_path / "said.wav"
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(2)
        wav.setsampwidth(2)
        wav.setframerate(22_050)
        wav.writeframes(np.stack([upsampled, upsampled], axis=1).astype("<i2").tobytes())
    grammar = Grammar(("play nine red two", "play nine red one", "play two red two", "burn hand"))
    assert recognise_file(path, grammar, backend="sphinx").text == "play nine red two"


def test_recognise_file_hears_a_recording_that_starts_on_the_first_word(tmp_path: Path) -> None:
    path = tmp_path / "tight.wav"
    write_wav(path, speech("play king out", "en-us"))  # no silence before or after
    grammar = Grammar(("play king out", "play ace out", "burn hand"))
    assert recognise_file(path, grammar, backend="sphinx").text == "play king out"


def test_silence_in_a_file_is_heard_as_nothing(tmp_path: Path) -> None:
    path = tmp_path / "quiet.wav"
    write_wav(path, (np.random.default_rng(1).standard_normal(32_000) * 40).astype(np.int16))
    assert recognise_file(path, Grammar(("play king out",)), backend="sphinx") == Heard("")


def test_the_microphone_is_ignored_while_the_game_speaks(recogniser: SphinxRecogniser) -> None:
    grammar = Grammar(("play king out", "burn hand"))
    pause = (np.random.default_rng(2).standard_normal(16_000) * 60).astype(np.int16)
    first, second = clip("play king out", seed=9), clip("burn hand", seed=10)
    samples = np.concatenate([first, pause, second])
    speaking = {"on": True}
    recogniser.new_stream()
    recogniser.set_grammar(grammar)
    listener = Listener(recogniser, muted=lambda: speaking["on"])
    heard: list[str] = []
    for position, block in zip(range(0, len(samples), BLOCK_SAMPLES), as_callback_blocks(samples)):
        if position >= len(first):
            speaking["on"] = False  # the game stopped talking before the player's second sentence
        result = listener.feed(block[:, 0])
        if result is not None:
            heard.append(result.text)
    final = recogniser.finish()
    if final is not None:
        heard.append(final.text)
    assert heard == ["burn hand"]
    assert listener.ignored_samples >= len(first)


def test_with_headphones_the_player_can_talk_over_the_game(recogniser: SphinxRecogniser) -> None:
    recogniser.new_stream()
    recogniser.set_grammar(Grammar(("play king out", "burn hand")))
    listener = Listener(recogniser, muted=lambda: True, headphones=True)
    heard = [h.text for h in listener.feed_all(b[:, 0] for b in as_callback_blocks(clip("burn hand", seed=11)))]
    assert heard == ["burn hand"]


def test_timing_reports_the_endpoint_wait_and_decoding() -> None:
    recogniser = SphinxRecogniser(early_end=None)  # always the whole hangover
    heard = hear_through_callback(recogniser, Grammar(("play king out", "burn hand")), clip("burn hand", seed=12))
    assert heard is not None and heard.text == "burn hand"
    timing = recogniser.last_timing
    assert timing is not None and not timing.ended_early
    assert 400 <= timing.endpoint_wait_ms <= 700  # the 0.45 s hangover plus frame rounding
    assert timing.decode_ms >= 0.0


SPLIT = "play seven red one five red two two"
SPLIT_GRAMMAR = Grammar((SPLIT, "play seven red one", "play seven red two", "burn hand", "stop", "stop talking", "help"))


def test_a_whole_sentence_is_answered_after_a_short_pause_not_the_whole_hangover(recogniser: SphinxRecogniser) -> None:
    for text, seed in (("burn hand", 30), ("help", 31), ("stop talking", 32)):
        heard = hear_through_callback(recogniser, SPLIT_GRAMMAR, clip(text, "en-us", 20.0, seed=seed))
        assert heard is not None and heard.text == text
        timing = recogniser.last_timing
        assert timing is not None and timing.ended_early
        assert timing.endpoint_wait_ms < 250


def test_a_sentence_that_begins_a_longer_one_waits_the_whole_hangover(recogniser: SphinxRecogniser) -> None:
    for text, seed in (("play seven red one", 33), ("stop", 34)):
        heard = hear_through_callback(recogniser, SPLIT_GRAMMAR, clip(text, "en-us", 20.0, seed=seed))
        assert heard is not None and heard.text == text
        timing = recogniser.last_timing
        assert timing is not None and not timing.ended_early
        assert timing.endpoint_wait_ms >= 400


def seven_table(red_marbles: list[object]) -> dict[str, object]:
    others = {"players": [{"colour": c, "hand": ["7", "9"] if c == "red" else ["9"]}
                          for c in ("red", "blue", "green", "yellow")]}
    home = ["home"] * 4
    return {"format": "voicejack-table/1", "mode": "regular", "teams": True, "turn": "red", **others,
            "marbles": {"red": red_marbles, "blue": home, "green": home, "yellow": home}}


def test_a_seven_no_split_can_continue_ends_early_and_one_a_split_can_waits(recogniser: SphinxRecogniser) -> None:
    # Issue 12 (latency): with red one the only marble out, "play seven red one" can only go on as "... seven",
    # the same move, so the game answers after a short pause; with two marbles out a split may follow.
    for marbles, ends_early in (([10, "home", "home", "home"], True), ([10, 30, "home", "home"], False)):
        grammar = phrase_set(table_from_dict(seven_table(marbles)), "red")
        heard = hear_through_callback(recogniser, grammar, clip("play seven red one", "en-us", None, seed=33))
        assert heard is not None and heard.text == "play seven red one"
        timing = recogniser.last_timing
        assert timing is not None and timing.ended_early is ends_early
        assert (timing.endpoint_wait_ms < 250) is ends_early


class CheckFindingNothing(SphinxRecogniser):
    """pocketsphinx with an early check (as the Whisper check's word model gives it) that keeps no sentence."""

    def __init__(self) -> None:
        super().__init__()
        self.confirms_unsure_early = True
        self.early_confidence = 1.1  # every early reading goes to the check
        self.checked: list[str] = []

    def _confirmed_early(self, audio: np.ndarray, heard: Heard) -> Heard | None:
        self.checked.append(heard.text)
        return Heard("")


def test_an_early_check_that_keeps_nothing_does_not_end_the_utterance() -> None:
    # Issue 12: said with a pause, "option ... two" was checked at "option", found to be nothing, and that
    # nothing ended the utterance, so the "two" was lost; now the hangover decides, as without an early end.
    recogniser = CheckFindingNothing()
    grammar = Grammar(("option one", "option two", "options", "help", "yes", "no"))
    heard = hear_through_callback(recogniser, grammar, clip("option two", "en-us", None, seed=1))
    assert recogniser.checked == ["option two"]
    assert heard is not None and heard.text == "option two"
    timing = recogniser.last_timing
    assert timing is not None and not timing.ended_early and timing.endpoint_wait_ms >= 400


def test_a_hesitation_inside_a_split_move_does_not_cut_the_player_off(recogniser: SphinxRecogniser) -> None:
    for seconds, seed in ((0.2, 35), (0.35, 36)):
        said = np.concatenate([speech("play seven red one"), np.zeros(round(seconds * 16_000), dtype=np.int16),
                               speech("five red two two")])
        samples = make_clip(said, 20.0, seed=seed, room_level=60.0).samples
        heard = hear_through_callback(recogniser, SPLIT_GRAMMAR, samples)
        assert heard is not None and heard.text == SPLIT


def test_in_noise_a_whole_sentence_still_ends_early_but_only_after_a_longer_pause(recogniser: SphinxRecogniser) -> None:
    # At 20 dB the gap between two words can sink under the floor for 60 ms; a complete sentence still ends
    # before the hangover, but after EARLY_END_NOISY of quiet.
    heard = hear_through_callback(recogniser, SPLIT_GRAMMAR, clip("burn hand", "en-us", 20.0, seed=30))
    assert heard is not None and heard.text == "burn hand"
    timing = recogniser.last_timing
    assert timing is not None and timing.ended_early
    assert EARLY_END_NOISY * 1000 <= timing.endpoint_wait_ms < 400
    quiet = hear_through_callback(recogniser, SPLIT_GRAMMAR, clip("burn hand", "en-us", None, seed=30))
    assert quiet is not None and quiet.text == "burn hand"
    assert recogniser.last_timing is not None and recogniser.last_timing.endpoint_wait_ms < EARLY_END_NOISY * 1000


def test_in_noise_a_short_gap_between_words_does_not_end_the_sentence_at_the_first(
        recogniser: SphinxRecogniser) -> None:
    grammar = Grammar(("help", "option one", "option two", "yes", "no", "burn hand", "play king out", "repeat"))
    for seed in range(6):
        said = np.concatenate([speech("option"), np.zeros(1_600, dtype=np.int16), speech("one")])
        heard = hear_through_callback(recogniser, grammar, make_clip(said, 20.0, seed=seed, room_level=60.0).samples)
        assert heard is not None and heard.text == "option one", seed


def test_in_loud_noise_a_short_pause_is_not_trusted(recogniser: SphinxRecogniser) -> None:
    # At 10 dB the quiet parts of words (an s, a stop) sink into the noise and look like pauses.
    heard = hear_through_callback(recogniser, SPLIT_GRAMMAR, clip("burn hand", "en-us", 10.0, seed=37))
    assert heard is not None and heard.text == "burn hand"
    timing = recogniser.last_timing
    assert timing is not None and not timing.ended_early


def test_only_a_sentence_no_longer_sentence_continues_ends_an_utterance(recogniser: SphinxRecogniser) -> None:
    recogniser.set_grammar(SPLIT_GRAMMAR)
    assert recogniser.ends_the_sentence("help")
    assert recogniser.ends_the_sentence("stop talking")
    assert recogniser.ends_the_sentence(SPLIT)
    assert not recogniser.ends_the_sentence("stop")  # "stop talking" may follow
    assert not recogniser.ends_the_sentence("play seven red one")
    assert not recogniser.ends_the_sentence("play seven red")  # not a sentence
    assert not recogniser.ends_the_sentence("talking")


def test_a_complete_sentence_ends_an_utterance_unless_it_is_a_single_word(recogniser: SphinxRecogniser) -> None:
    # Issue 12: "play seven red one" that only "... seven" (the same move) can continue may end at once; a card
    # named alone waits, since table talk cut at its first pause came out as one ("i think ... so" as "five").
    grammar = Grammar(("play seven red one", "play seven red one seven", "five", "five red one"),
                      complete=frozenset({"play seven red one", "five"}))
    recogniser.set_grammar(grammar)
    assert recogniser.ends_the_sentence("play seven red one")
    assert not recogniser.ends_the_sentence("five")
    recogniser.set_grammar(Grammar(grammar.phrases))
    assert not recogniser.ends_the_sentence("play seven red one")


def test_every_move_word_is_in_the_pocketsphinx_dictionary(recogniser: SphinxRecogniser) -> None:
    words: set[str] = set()
    for state in random_positions(8, seed=2) + random_positions(4, seed=2, players=2):
        words |= grammar_of(state).words()
    assert not [w for w in sorted(words) if not recogniser.knows(w)]


def test_moves_resolve_to_the_engine_move_type(recogniser: SphinxRecogniser) -> None:
    state = random_positions(1, seed=9)[0]
    move = legal_moves(state)[0]
    heard = hear_through_callback(recogniser, grammar_of(state), clip(move.phrase, "en-us", None, seed=13))
    assert heard is not None
    result = resolve(state, state.turn, heard)
    assert isinstance(result, (Move, Confirm))


def test_voice_input_listens_on_its_own_thread_and_tags_each_result_with_its_grammar() -> None:
    from voicejack.speech.microphone import VoiceInput

    source = BlockQueue()
    first = Grammar(("play king out", "burn hand"))
    second = Grammar(("repeat", "burn hand"))
    with VoiceInput(SphinxRecogniser(), source=source) as voice:
        voice.set_grammar(first)
        for block in as_callback_blocks(clip("play king out", seed=14)):
            source.callback(block, len(block), None, None)
        result = voice.heard(timeout=10.0)
        assert result is not None
        heard, under = result
        assert heard.text == "play king out" and under == first

        voice.set_grammar(second)  # the game moved on; the listening thread installs it
        for block in as_callback_blocks(clip("repeat", seed=15)):
            source.callback(block, len(block), None, None)
        result = voice.heard(timeout=10.0)
        assert result is not None and result == (result[0], second) and result[0].text == "repeat"
        assert voice.heard(timeout=0.3) is None
