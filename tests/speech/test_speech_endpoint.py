"""The endpointer finds each utterance in a continuous stream, whatever the block size."""

from __future__ import annotations

import numpy as np
import pytest
from speech_helpers import speech

from voicejack.speech.endpoint import Endpointer, EndpointSettings, Mark, frame_levels_db, quieten_other_talkers

RATE = 16_000


def stream(*parts: tuple[str, float], noise_rms: float = 60.0, seed: int = 0) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Concatenate ('text', seconds of silence before it) parts over steady noise; returns samples and speech spans."""
    rng = np.random.default_rng(seed)
    pieces: list[np.ndarray] = []
    spans: list[tuple[int, int]] = []
    position = 0
    for text, gap in parts:
        silence = np.zeros(int(gap * RATE))
        voice = speech(text).astype(np.float64) if text else np.zeros(0)
        pieces += [silence, voice]
        spans.append((position + len(silence), position + len(silence) + len(voice)))
        position += len(silence) + len(voice)
    pieces.append(np.zeros(RATE))
    signal = np.concatenate(pieces)
    signal += rng.standard_normal(len(signal)) * noise_rms
    return np.clip(signal, -32768, 32767).astype(np.int16), spans


def run(samples: np.ndarray, block: int, settings: EndpointSettings | None = None) -> list[tuple[Mark, int, int]]:
    endpointer = Endpointer(settings)
    marks = []
    for start in range(0, len(samples), block):
        for event in endpointer.push(samples[start:start + block]):
            marks.append((event.mark, event.sample, len(event.audio)))
    for event in endpointer.flush():
        marks.append((event.mark, event.sample, len(event.audio)))
    return marks


def utterances(marks: list[tuple[Mark, int, int]]) -> list[tuple[int, int, int]]:
    """(start sample, end sample, audio samples handed over) per utterance."""
    found = []
    start = audio = 0
    for mark, sample, length in marks:
        if mark is Mark.START:
            start, audio = sample, length
        elif mark is Mark.AUDIO:
            audio += length
        else:
            found.append((start, sample, audio))
    return found


def test_one_utterance_is_found_with_its_onset_and_end() -> None:
    samples, [(begin, end)] = stream(("play nine red two", 1.0))
    [(start, stop, audio)] = utterances(run(samples, 1600))
    assert begin - 0.35 * RATE <= start <= begin  # the preroll reaches back before the onset
    assert end - 0.05 * RATE <= stop <= end + 0.05 * RATE  # the reported end is the last loud frame
    assert audio >= end - start  # everything between was handed over, hangover included


def test_a_short_pause_inside_a_sentence_does_not_cut_it() -> None:
    samples, _ = stream(("play seven red one five", 1.0), ("red two two", 0.25))
    assert len(utterances(run(samples, 1600))) == 1


def test_two_sentences_a_second_apart_are_two_utterances() -> None:
    samples, spans = stream(("play king out", 1.0), ("burn hand", 1.0))
    found = utterances(run(samples, 1600))
    assert len(found) == 2
    assert found[0][1] <= spans[1][0] <= found[1][0] + 0.35 * RATE


@pytest.mark.parametrize("block", [7, 160, 480, 1600, 4096])
def test_block_size_does_not_change_the_cut(block: int) -> None:
    samples, _ = stream(("play ace out", 0.8), ("repeat", 1.0))
    reference = utterances(run(samples, 1600))
    assert utterances(run(samples, block)) == reference


def test_steady_noise_alone_is_never_speech() -> None:
    noise = (np.random.default_rng(2).standard_normal(5 * RATE) * 2000).astype(np.int16)
    assert run(noise, 1600) == []


def test_digital_silence_is_never_speech() -> None:
    assert run(np.zeros(3 * RATE, dtype=np.int16), 1600) == []


def test_a_noise_floor_that_rises_is_learnt_without_endless_speech() -> None:
    rng = np.random.default_rng(3)
    quiet = rng.standard_normal(2 * RATE) * 50
    loud = rng.standard_normal(20 * RATE) * 1500  # a fan switched on, 30 dB louder
    marks = run(np.concatenate([quiet, loud]).astype(np.int16), 1600)
    found = utterances(marks)
    # The jump may open one "utterance", which ends by the maximum length; afterwards the fan is background.
    assert len(found) <= 1
    assert all(stop - start <= 10.5 * RATE for start, stop, _ in found)


def test_the_hangover_sets_how_long_after_speech_the_end_is_decided() -> None:
    samples, [(_, end)] = stream(("play king out", 1.0))
    for hangover in (0.3, 0.8):
        endpointer = Endpointer(EndpointSettings(hangover=hangover))
        decided_at = None
        for start in range(0, len(samples), 160):
            if any(e.mark is Mark.END for e in endpointer.push(samples[start:start + 160])):
                decided_at = start + 160
                break
        assert decided_at is not None
        assert hangover * RATE <= decided_at - end <= (hangover + 0.1) * RATE


def test_a_background_that_rises_and_falls_does_not_hold_an_utterance_open() -> None:
    from voicejack.speech.corpus import babble_like, speech_power

    rng = np.random.default_rng(4)
    voice = speech("play nine red two").astype(np.float64)
    lead, tail = 2 * RATE, 2 * RATE
    signal = np.concatenate([np.zeros(lead), voice, np.zeros(tail)])
    # Speech-shaped noise whose level swings by about 10 dB three times a second, 15 dB below the voice.
    signal += babble_like(len(signal), rng) * np.sqrt(speech_power(voice) / 10**1.5)
    samples = np.clip(signal, -32768, 32767).astype(np.int16)
    found = utterances(run(samples, 1600))
    assert len(found) == 1
    start, stop, _ = found[0]
    assert lead - 0.35 * RATE <= start <= lead + 0.1 * RATE
    assert abs(stop - (lead + len(voice))) <= 0.15 * RATE


def test_every_one_of_many_short_answers_in_a_long_session_is_found() -> None:
    # A player answering "yes" and "options" over and over, each about a second after the last,
    # with steady noise: speech onsets must never be learnt as background and raise the bar.
    parts = [("yes" if i % 2 else "options", 1.0) for i in range(16)]
    samples, spans = stream(*parts, noise_rms=300.0, seed=6)
    found = utterances(run(samples, 1600))
    assert len(found) == len(spans)
    for (begin, end), (start, stop, _) in zip(spans, found):
        assert start <= begin and abs(stop - end) <= 0.1 * RATE


def test_a_cut_ends_the_utterance_at_once_and_the_next_one_is_still_found() -> None:
    samples, [(_, first_end), (second_begin, _)] = stream(("burn hand", 1.0), ("play king out", 1.0))
    endpointer = Endpointer()
    cut_at = None
    starts = []
    ends = []
    for start in range(0, len(samples), 320):
        for event in endpointer.push(samples[start:start + 320]):
            if event.mark is Mark.START:
                starts.append(event.sample)
            elif event.mark is Mark.END:
                ends.append(event.sample)
        if cut_at is None and endpointer.in_speech and endpointer.quiet_frames >= 10:
            cut_at = endpointer.position
            assert abs(endpointer.cut() - first_end) <= 0.05 * RATE  # where the speech stopped
            assert not endpointer.in_speech and endpointer.quiet_frames == 0
    assert cut_at is not None and cut_at < first_end + 0.2 * RATE  # long before the 0.45 s hangover
    assert len(starts) == 2 and second_begin - 0.35 * RATE <= starts[1] <= second_begin
    assert len(ends) == 1  # only the second utterance ended by the hangover


def test_how_far_speech_stands_above_the_floor_is_measured() -> None:
    rng = np.random.default_rng(3)
    voice = speech("burn hand").astype(np.float64)
    for noise_rms, low, high in ((60.0, 25.0, 60.0), (600.0, 5.0, 25.0)):
        signal = np.concatenate([np.zeros(RATE // 2), voice, np.zeros(RATE // 2)])
        signal += rng.standard_normal(len(signal)) * noise_rms
        endpointer = Endpointer()
        seen = 0.0
        for start in range(0, len(signal), 320):
            endpointer.push(np.clip(signal[start:start + 320], -32768, 32767).astype(np.int16))
            if endpointer.in_speech:
                seen = endpointer.speech_over_floor_db
        assert low <= seen <= high


def _in_talk(voice: np.ndarray, below_db: float, seed: int = 5) -> tuple[np.ndarray, int]:
    """``voice`` half a second into speech-shaped talk ``below_db`` under it; returns samples and speech start."""
    from voicejack.speech.corpus import babble_like, speech_power

    lead = RATE // 2
    signal = np.concatenate([np.zeros(lead), voice.astype(np.float64), np.zeros(RATE // 2)])
    talk = babble_like(len(signal), np.random.default_rng(seed))
    signal += talk * np.sqrt(speech_power(voice) / 10 ** (below_db / 10))
    return np.clip(np.round(signal), -32768, 32767).astype(np.int16), lead


def test_the_others_before_and_after_the_players_words_are_turned_down_and_the_words_are_not() -> None:
    """Issue 12, thirty-second round: the audio handed over behind other talkers, less what they said around
    the player's words."""
    voice = speech("help")
    samples, lead = _in_talk(voice, below_db=15.0)
    quietened = quieten_other_talkers(samples)
    assert quietened.dtype == np.int16 and len(quietened) == len(samples)
    # From the player's first to last 10 ms within 10 dB of their loudest: untouched, however quiet in between.
    levels = frame_levels_db(voice[: len(voice) // 160 * 160].reshape(-1, 160))
    loud = np.flatnonzero(levels > levels.max() - 10.0)
    words = slice(lead + int(loud[0]) * 160, lead + (int(loud[-1]) + 1) * 160)
    assert np.array_equal(quietened[words], samples[words])
    for others in (slice(0, lead - RATE // 5), slice(lead + len(voice) + RATE // 5, len(samples))):
        power_kept = np.mean(quietened[others].astype(np.float64) ** 2) / np.mean(samples[others] ** 2.0)
        assert np.sqrt(power_kept) < 0.05  # 30 dB down: about 0.03 of the level


def test_talk_as_loud_as_the_player_and_short_clips_are_left_as_they_are() -> None:
    samples, _ = _in_talk(speech("help"), below_db=0.0)
    assert np.mean(quieten_other_talkers(samples) == samples) > 0.9  # no quiet talk to tell from the player's
    # Loud from the very first sample: the fade after the words still goes down (0.2 s of tone, then quiet
    # noise; the last loud 20 ms window starts at 0.19 s, kept with 80 ms of margin to 0.29 s, faded to 0.31 s).
    tone = np.concatenate([8000 * np.sin(np.arange(RATE // 5) * 0.3), np.random.default_rng(1).normal(0, 800, RATE)])
    samples = np.round(tone).astype(np.int16)
    fading = slice(int(0.30 * RATE), int(0.31 * RATE))
    assert np.mean(np.abs(quieten_other_talkers(samples)[fading])) < 0.5 * np.mean(np.abs(samples[fading]))
    short = np.full(100, 1000, dtype=np.int16)
    assert np.array_equal(quieten_other_talkers(short), short)


def test_a_background_of_talk_is_busy_and_a_fan_is_not() -> None:
    from voicejack.speech.corpus import babble_like

    rng = np.random.default_rng(2)
    for background, busy in ((rng.standard_normal(3 * RATE) * 300.0, False),
                             (babble_like(3 * RATE, rng) * 300.0, True)):
        endpointer = Endpointer()
        endpointer.learn_room(np.clip(background, -32768, 32767).astype(np.int16))
        assert endpointer.busy_background is busy
