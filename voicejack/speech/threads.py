"""How many threads the check's models may use.

The check (whisper_backend.py) runs after the player has stopped, while pocketsphinx only waits for the next
utterance, so on a machine with two cores its models (Whisper's through CTranslate2, Moonshine's through ONNX
Runtime) take both: with int8 weights their scores are the same bit for bit on one thread or two, so every
rule and weight tuned on one thread decides as before, only sooner.

numpy's own products (the mel filter bank in front of Whisper's encoder, the word model) stay on one thread.
Across two, OpenBLAS sums in another order, and the int8 encoder turns that last-bit difference into word
model scores up to 0.9 apart: the game would not decide as the benchmark measured (its parts each run pinned
to one core, where OpenBLAS uses one thread). Its idle threads also spin, and took the second core from the
models: one thread was faster for every step of a check (models/README.md, forty-third round).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from threadpoolctl import ThreadpoolController

MOST_THREADS = 2  # measured on two cores; whether more would pay for models this small is untested


def check_threads(most: int = MOST_THREADS) -> int:
    """Threads for a model of the check: up to ``most``, no more than the cores this process may run on (a
    game pinned to one core, by taskset or a container's CPU set, must not have its threads fight for it)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(most, cores))


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """numpy's linear algebra on one thread for the duration."""
    with _controller().limit(limits=1, user_api="blas"):
        yield


@cache
def _controller() -> ThreadpoolController:
    return ThreadpoolController()  # made on first use: it sees only the libraries loaded by then (numpy's BLAS)
