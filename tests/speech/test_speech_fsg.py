"""The pocketsphinx grammar: every sentence of a turn equally likely, whatever its length or shape."""

from __future__ import annotations

import math

import pytest
from speech_helpers import clip, grammar_of, random_positions

from voicejack.language import Grammar
from voicejack.speech import recognise_samples
from voicejack.speech.fsg import sentence_graph
from voicejack.speech.sphinx import SphinxRecogniser, non_rhotic


def test_every_sentence_gets_the_same_prior_however_the_grammar_folds() -> None:
    phrases = ["help", "score", "play seven red one", "play seven red two", "play nine red one", "quit", "quit game"]
    graph = sentence_graph(phrases)
    for phrase in phrases:
        assert graph.sentence_probability(phrase) == pytest.approx(1 / len(phrases))
    assert graph.sentence_probability("play seven") == 0.0  # a prefix is not a sentence
    assert graph.sentence_probability("play seven red three") == 0.0


def test_weights_set_each_sentence_prior() -> None:
    graph = sentence_graph(["yes", "no", "play ace out"], weight=lambda s: 2.0 if s == "yes" else 1.0)
    assert graph.sentence_probability("yes") == pytest.approx(0.5)
    assert graph.sentence_probability("play ace out") == pytest.approx(0.25)


def test_shared_futures_are_merged_so_a_turn_stays_small() -> None:
    state = random_positions(1)[0]
    grammar = grammar_of(state)
    graph = sentence_graph(grammar.phrases)
    words = sum(len(p.split()) for p in grammar.phrases)
    assert graph.states < words / 2
    total = sum(graph.sentence_probability(p) for p in grammar.phrases)
    assert math.isclose(total, 1.0, rel_tol=1e-6)


def test_an_empty_grammar_is_refused() -> None:
    with pytest.raises(ValueError):
        sentence_graph(["", "  "])


def test_non_rhotic_forms_drop_only_an_r_after_a_vowel() -> None:
    assert non_rhotic("S K AO R") == "S K AO"
    assert non_rhotic("K W AY AH T ER") == "K W AY AH T AH"
    assert non_rhotic("R IH P IY T") is None  # an r before a vowel stays
    assert non_rhotic("HH EH L P") is None


def test_help_with_a_british_voice_is_heard_as_help() -> None:
    """espeak-ng's British voice vocalises the l; without the added pronunciation pocketsphinx heard "nope"."""
    grammar = Grammar(("help", "nope", "no", "hand", "two", "moves", "score", "slower", "full", "play ace out"))
    for recogniser in (SphinxRecogniser(), SphinxRecogniser(early_end=None)):
        heard = [recognise_samples(clip("help", "en", snr, seed), grammar, recogniser).text
                 for snr, seed in ((None, 0), (20.0, 1))]
        assert heard == ["help", "help"]
    # Decoded after the whole hangover (the shorter decode after a short pause happens to hear it anyway).
    without = SphinxRecogniser(accent_variants=False, early_end=None)
    assert recognise_samples(clip("help", "en", None, 0), grammar, without).text != "help"
