"""The mixer's real-time rules, checked directly: no temporaries, scheduling, chunking, limits."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from voicejack.audio import cuepack
from voicejack.audio.cuenames import Cue
from voicejack.audio.mixer import MAX_VOICES, Mixer

RATE = 48000


def busy_mixer() -> Mixer:
    mixer = Mixer(RATE)
    tone = np.stack([cuepack.synthesise(Cue.WIN)] * 2, axis=1)
    for index in range(16):
        mixer.play(np.tile(tone, (20, 1)), start_frame=index * 100, gain=1.5)
    mixer.new_speech("loud").deliver(np.full((RATE * 10, 2), 0.9, np.float32))
    return mixer


def worst_allocation(mixer: Mixer, block: np.ndarray, blocks: int = 100) -> int:
    """The most memory one mix_into call took, over ``blocks`` calls."""
    tracemalloc.start()
    try:
        worst = 0
        for _ in range(blocks):
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            mixer.mix_into(block)
            worst = max(worst, tracemalloc.get_traced_memory()[1] - before)
    finally:
        tracemalloc.stop()
    return worst


def test_mixing_a_block_creates_no_block_sized_arrays() -> None:
    mixer = busy_mixer()
    block = np.zeros((512, 2), np.float32)
    for _ in range(5):
        mixer.mix_into(block)  # ducking and limiting are both working from here on
    worst = worst_allocation(mixer, block)
    assert mixer.peak_reduction < 1.0
    assert worst < block.nbytes // 2  # only small scalars and views, never a copy of the block


def test_the_timeline_and_mono_create_no_block_sized_arrays_either() -> None:
    """Steps placed as they come due, sentences after them, folding to mono: still only views and scalars."""
    mixer = Mixer(RATE)
    mixer.mono = True
    step = np.stack([cuepack.synthesise(Cue.STEP_RED)] * 2, axis=1)
    for _ in range(3):
        mixer.queue_cues([(step, index * RATE // 7, 1.0) for index in range(12)])
        mixer.new_speech("words").deliver(np.full((RATE // 2, 2), 0.3, np.float32))
    block = np.zeros((512, 2), np.float32)
    mixer.mix_into(block)
    worst = worst_allocation(mixer, block, blocks=700)  # 7.5 s: through all six items
    assert worst < block.nbytes // 2
    assert mixer.idle()


def test_cues_start_on_their_frame_and_late_ones_start_at_once() -> None:
    mixer = Mixer(RATE)
    click = np.zeros((10, 2), np.float32)
    click[0] = 0.5
    mixer.play(click, start_frame=1000)
    block = np.zeros((4096, 2), np.float32)
    mixer.mix_into(block)
    assert np.flatnonzero(block[:, 0])[0] == 1000
    mixer.play(click, start_frame=10)  # already in the past: play it now rather than lose it
    mixer.mix_into(block)
    assert np.flatnonzero(block[:, 0])[0] == 0


def test_a_callback_asking_for_more_than_the_scratch_size_is_filled_whole() -> None:
    mixer = Mixer(RATE, max_block=256)
    tone = np.full((3000, 2), 0.25, np.float32)
    mixer.play(tone, start_frame=0)
    block = np.zeros((1000, 2), np.float32)
    mixer.mix_into(block)
    assert mixer.frame == 1000 and np.allclose(block, 0.25)


def test_voices_past_the_limit_are_counted_not_crashed() -> None:
    mixer = Mixer(RATE)
    tone = np.full((RATE, 2), 0.001, np.float32)
    for _ in range(MAX_VOICES + 5):
        mixer.play(tone)
    mixer.mix_into(np.zeros((512, 2), np.float32))
    assert mixer.dropped_voices == 5


def test_stereo_is_required() -> None:
    with pytest.raises(ValueError, match="stereo"):
        Mixer(RATE).play(np.zeros(100, np.float32))
