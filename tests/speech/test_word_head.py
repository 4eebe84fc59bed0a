"""The word model on Whisper's encoder (voicejack/speech/word_head.py): its CTC scoring exactly, and the shipped
weights on real speech through the real Whisper encoder (issue 12)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from voicejack.engine import legal_moves, make_rules, new_game, play
from voicejack.language import phrase_set
from voicejack.speech.word_head import UNKNOWN, Spotted, WordHead, ctc_log_likelihoods


def _collapse(path: tuple[int, ...], blank: int = 0) -> tuple[int, ...]:
    out: list[int] = []
    previous = None
    for unit in path:
        if unit != previous and unit != blank:
            out.append(unit)
        previous = unit
    return tuple(out)


def _brute_force(log_probs: np.ndarray, labels: tuple[int, ...]) -> float:
    """The CTC probability by its definition: the sum over every frame-by-frame path that collapses to it."""
    frames, units = log_probs.shape
    total = 0.0
    for path in itertools.product(range(units), repeat=frames):
        if _collapse(path) == labels:
            total += math.exp(sum(log_probs[t, u] for t, u in enumerate(path)))
    return math.log(total) if total > 0 else -math.inf


def test_ctc_scores_equal_the_sum_over_every_alignment() -> None:
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(5, 4))
    log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    sequences = [(1,), (1, 2), (2, 2), (1, 2, 3), (3, 1, 3), (1, 1, 1)]
    scores = ctc_log_likelihoods(log_probs, sequences)
    for labels, score in zip(sequences, scores, strict=True):
        assert score == pytest.approx(_brute_force(log_probs, labels), abs=1e-9), labels


def test_a_sentence_that_cannot_fit_in_the_frames_scores_nothing() -> None:
    log_probs = np.log(np.full((3, 3), 1 / 3))
    # "one one" needs a blank between its words: 3 frames; three different words need 3 frames; four can't.
    scores = ctc_log_likelihoods(log_probs, [(1, 1), (1, 2, 1, 2)])
    assert scores[0] > -50
    assert scores[1] < -1e20


def test_spotted_margin_and_fit_read_the_ranking() -> None:
    spotted = Spotted((("play ace out", -3.0), ("play ace", -7.0), ("read the board", -20.0)), -2.0, 100)
    assert spotted.best(1) == ("play ace out",)
    assert spotted.margin("play ace out") == 4.0
    assert spotted.margin("play ace") == -4.0
    assert spotted.margin("read the board") == -17.0
    assert spotted.fit("play ace out") == pytest.approx(-0.5)  # one nat below the best path over two seconds
    assert spotted.margin("burn five") == -99.0


def test_the_shipped_weights_know_every_word_the_game_listens_for() -> None:

    head = WordHead()
    known = set(head.vocabulary)
    assert UNKNOWN in known
    rng = np.random.default_rng(1)
    missing: set[str] = set()
    for players, teams, mode in ((4, True, "regular"), (2, False, "complex")):
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=11)
        for _ in range(60):
            if state.winner is not None:
                break
            missing |= phrase_set(state, state.turn).words() - known
            moves = legal_moves(state)
            state, _ = play(state, moves[int(rng.integers(len(moves)))])
    assert not missing


def test_the_word_model_ranks_the_move_said_first_through_other_talkers() -> None:
    """Issue 12: among other talkers the sentence said was often on no recogniser's shortlist. The word model
    scores every sentence of the grammar from Whisper's encoder output; through three talkers 10 dB below,
    it should rank the move said first among all the position's sentences nearly every time."""
    from speech_helpers import grammar_of, random_positions
    from test_speech_babble import in_babble

    from voicejack.speech.whisper_backend import WhisperScorer

    scorer = WhisperScorer()
    head = WordHead()
    first = 0
    for index, state in enumerate(random_positions(6, seed=11)):
        moves = sorted({m.phrase for m in legal_moves(state)})
        said = moves[index % len(moves)]
        samples, end = in_babble(said, seed=index, below_db=10.0)
        transcript = scorer.transcribe(samples[16_000 - 3_200:end + 4_800])
        first += head.spot(transcript.speech_frames(), sorted(grammar_of(state).phrases)).best(1) == (said,)
    assert first >= 5, first



def test_the_whisper_check_scores_the_word_models_best_sentences_by_name_and_weighs_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check hands Whisper the word model's two best sentences along with pocketsphinx's readings, and
    settles with the weights fitted with the word model; without it (``head=False``) the earlier weights stand.
    The rules that settle an utterance before the scoring (the word model agreeing or sure by itself, both
    recognisers writing the same) are turned off: whether they settle this one depends on the processor."""
    from speech_helpers import grammar_of, random_positions
    from test_speech_babble import in_babble

    from voicejack.speech import recognise_samples
    from voicejack.speech.acceptance import HEAD_WEIGHTS, WEIGHTS
    from voicejack.speech.whisper_backend import HEAD_CANDIDATES, Scored, SphinxWhisperRecogniser, WhisperScorer

    asked: list[tuple[str, ...]] = []
    spotted: list[Spotted] = []

    class Asked(WhisperScorer):
        def rank(self, *args: Any, **kwargs: Any) -> Scored:
            asked.append(tuple(kwargs["also"]))
            return super().rank(*args, **kwargs)

    class Watched(WordHead):
        def spot(self, encoded: np.ndarray, sentences: Sequence[str]) -> Spotted:
            spotted.append(super().spot(encoded, sentences))
            return spotted[-1]

    from voicejack.speech import check_rules, whisper_backend

    monkeypatch.setattr(whisper_backend, "word_model_agrees", lambda *_: False)  # it ends a sentence early too
    monkeypatch.setattr(check_rules, "word_model_agrees", lambda *_: False)
    monkeypatch.setattr(check_rules, "word_model_sure", lambda *_: "")
    monkeypatch.setattr(check_rules, "sure_reading", lambda _: False)
    state = random_positions(1, seed=8)[0]
    said = sorted({m.phrase for m in legal_moves(state)})[1]
    recogniser = SphinxWhisperRecogniser(always=True, head=Watched())
    recogniser.scorer = Asked()
    assert recogniser.weights == HEAD_WEIGHTS
    samples, _ = in_babble(said, seed=2, below_db=10.0)
    recognise_samples(samples, grammar_of(state), recogniser)
    assert len(spotted) == len(asked) == 1
    assert asked[0][-HEAD_CANDIDATES:] == spotted[0].best(HEAD_CANDIDATES)
    assert {text for text, _ in spotted[0].ranked} == set(grammar_of(state).phrases)
    plain = SphinxWhisperRecogniser(head=False)
    assert plain.head is None and plain.weights == WEIGHTS


def test_the_word_models_first_sentence_is_a_candidate_even_when_neither_recogniser_put_it_first() -> None:
    """Among other talkers the move said was often nobody's first choice: pocketsphinx heard one sentence,
    Whisper ranked another first. The word model's first is weighed beside them, and settles it when the
    weights trust it (here only "head ranks it first" counts); without its scores it cannot be chosen."""
    from voicejack.hearing import Heard
    from voicejack.speech.acceptance import FEATURES, HEAD_FEATURES, settle
    from voicejack.speech.transcripts import Scored

    said, pocketsphinx, whisper = "play seven red one", "play eleven red one", "play seven red two"
    scored = Scored(" Play 7, Rev 1.", ((whisper, -4.0), (said, -4.5), (pocketsphinx, -6.0)), 0.5,
                    fit=((whisper, -0.8), (said, -0.9), (pocketsphinx, -1.2)))
    spotted = Spotted(((said, -3.0), (whisper, -9.0), (pocketsphinx, -12.0)), -2.5, 60)
    names = FEATURES + HEAD_FEATURES
    trusting = tuple(5.0 if name == "head ranks it first" else (-2.5 if name == "bias" else 0.0) for name in names)
    heard = settle(Heard(pocketsphinx, (0.5,) * 4), None, scored, 15.0, weights=trusting, spotted=spotted)
    assert heard.text == said and min(heard.word_confidences) > 0.6
    blind = tuple(w for name, w in zip(names, trusting, strict=True) if name in FEATURES)
    assert settle(Heard(pocketsphinx, (0.5,) * 4), None, scored, 15.0, weights=blind).text != said


def test_a_missing_or_damaged_word_model_says_so_plainly(tmp_path: Path) -> None:
    from voicejack.speech.word_head import WordHeadUnavailable

    damaged = tmp_path / "head.npz"
    damaged.write_bytes(b"not a model")
    for path in (tmp_path / "absent.npz", damaged):
        with pytest.raises(WordHeadUnavailable, match="missing or damaged"):
            WordHead(path)
    np.savez(tmp_path / "short.npz", vocab=np.array(["<blank>", "<unk>"]), w1=np.zeros((1920, 4)), b1=np.zeros(4),
             w2=np.zeros((4, 4)), b2=np.zeros(4), w3=np.zeros((4, 5)), b3=np.zeros(5))
    with pytest.raises(WordHeadUnavailable, match="does not match"):
        WordHead(tmp_path / "short.npz")
