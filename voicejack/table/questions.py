"""Yes-or-no questions asked outside a match: replace a saved match? another match?"""

from __future__ import annotations

from typing import Final

from voicejack.language import Grammar, Heard
from voicejack.language.resolution import LanguageSettings
from voicejack.table.inputs import EndOfInput, InputHub
from voicejack.table.messages import say
from voicejack.table.presenter import Presenter

YES_WORDS: Final = ("yes", "yeah", "yep", "sure", "ok", "okay", "yes please")
NO_WORDS: Final = ("no", "nope", "no thanks", "not now")
# Listened for: the answers of a match, which the check's word model knows. With "okay", "sure" and "not now"
# in the grammar too, a third of the held-out voices' table talk in the reverberant room was heard as a yes,
# a tenth of it surely (benchmarks/questions.py). Typed, every word above counts. Answers are obeyed the moment
# they are heard, so a recogniser weighs them as it weighs commands, and may count the forms of one answer as
# one (Grammar.answers).
SPOKEN_YES: Final = ("yes", "yeah", "yep")
SPOKEN_NO: Final = ("no", "nope")
YES_OR_NO: Final = Grammar(SPOKEN_YES + SPOKEN_NO, obeyed=frozenset(SPOKEN_YES + SPOKEN_NO),
                           answers=(frozenset(SPOKEN_YES), frozenset(SPOKEN_NO)))
# A word heard less sure than this is no answer; the language layer confirms a move heard so.
SURE: Final = LanguageSettings().low_confidence
TRIES: Final = 3


def answer_of(heard: Heard) -> bool | None:
    """True for a yes, False for a no; None for other words, and for an answer heard unsure (a word below
    SURE, or doubted by the recogniser). With only these few sentences to choose from, a recogniser forces table
    talk onto one of them, mostly unsure; and a yes to "replace the saved match?" cannot be taken back."""
    if heard.doubted or (heard.word_confidences and min(heard.word_confidences) < SURE):
        return None
    words = " ".join(heard.text.lower().strip(" .!?").split())
    return True if words in YES_WORDS else False if words in NO_WORDS else None


def ask_yes_no(presenter: Presenter, inputs: InputHub, question: str, timeout: float | None = None) -> bool | None:
    """True for yes, False for no; None when input ends, nobody answers, or no answer is clear after a few tries."""
    presenter.say(question)
    for _ in range(TRIES):
        answer = inputs.listen(YES_OR_NO, timeout)
        if answer is None or isinstance(answer, EndOfInput):
            return None
        clear = answer_of(answer.heard)
        if clear is not None:
            return clear
        presenter.say([say("yes_or_no"), question])
    return None
