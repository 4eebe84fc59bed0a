"""How sure a grammar-forced hearing is, judged against the best other sentence of the moment.

A grammar-forced recogniser always finds *some* sentence, and its word
confidences (sphinx.py) say how well that sentence fits the audio, not
whether another sentence of the moment fits it almost as well. A second
decoding of the same audio, under the grammar with the heard sentence left
out, finds the **runner-up**. When it scores nearly as well (a margin in
natural log per 10 ms frame of the whole utterance), the hearing is a near
tie ("one one" or "one eleven"): the runner-up is passed on as an
alternative, and the command language asks which was meant instead of
acting. Pocketsphinx's own n-best list rarely holds it: its lattice is
pruned to paths through the same words, and the full search's beam can
lose the runner-up altogether (it then sometimes scores better than the
heard sentence: a negative margin).

The margin was chosen on the tuning part of benchmarks/asr.py only
(benchmarks/asr_replay.py replays recorded evidence under other values).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from voicejack.hearing import Heard

# A runner-up closer than this (ln per frame) to the heard sentence makes a near tie. On the tuning part,
# 0 to 0.05 differ by one babble move in 40 (heard right, then confirmed); 0.01 also counts two readings
# whose scores are equal within the search's own noise as a tie (the two spellings of a homophone, the
# same sounds, came out up to 0.007 apart). Wider margins confirmed right moves and caught no more wrong.
TIE_MARGIN = 0.01


@dataclass(frozen=True, slots=True)
class Evidence:
    """Scores of one utterance's audio under the grammar, and under the grammar without the heard sentence."""

    frames: int
    best: float  # ln acoustic score of the heard sentence's path
    runner_up: str = ""  # the best other sentence ("" when the grammar has no other or none was found)
    runner_up_score: float = float("-inf")

    @property
    def margin(self) -> float:
        """How much better (ln per frame) the heard sentence fits than the runner-up; inf without one."""
        if not self.runner_up:
            return float("inf")
        return (self.best - self.runner_up_score) / max(1, self.frames)


@dataclass(frozen=True, slots=True)
class JudgeSettings:
    tie_margin: float = TIE_MARGIN


def judge(heard: Heard, evidence: Evidence | None, settings: JudgeSettings) -> Heard:
    """``heard`` as the command language should see it once the runner-up is weighed."""
    if not heard.text or evidence is None or not evidence.runner_up:
        return heard
    if evidence.margin < settings.tie_margin and evidence.runner_up not in heard.alternatives:
        return replace(heard, alternatives=(evidence.runner_up, *heard.alternatives))
    return heard
