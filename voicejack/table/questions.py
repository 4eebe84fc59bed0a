"""Yes-or-no questions asked outside a match: replace a saved match? another match?"""

from __future__ import annotations

from typing import Final

from voicejack.language import Grammar
from voicejack.table.inputs import EndOfInput, InputHub
from voicejack.table.messages import say
from voicejack.table.presenter import Presenter

YES_WORDS: Final = ("yes", "yeah", "yep", "sure", "ok", "okay", "yes please")
NO_WORDS: Final = ("no", "nope", "no thanks", "not now")
YES_OR_NO: Final = Grammar(YES_WORDS + NO_WORDS)
TRIES: Final = 3


def ask_yes_no(presenter: Presenter, inputs: InputHub, question: str, timeout: float | None = None) -> bool | None:
    """True for yes, False for no; None when input ends, nobody answers, or no answer is clear after a few tries."""
    presenter.say(question)
    for _ in range(TRIES):
        answer = inputs.listen(YES_OR_NO, timeout)
        if answer is None or isinstance(answer, EndOfInput):
            return None
        words = " ".join(answer.heard.text.lower().strip(" .!?").split())
        if words in YES_WORDS:
            return True
        if words in NO_WORDS:
            return False
        presenter.say([say("yes_or_no"), question])
    return None
