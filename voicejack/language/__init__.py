"""The spoken (and typed) command language: from what was heard to a legal move, a question or a command.

    >>> from voicejack.engine import make_rules, new_game
    >>> from voicejack.language import resolve, phrase_set
    >>> state, _ = new_game(make_rules(players=4), seed=7)
    >>> grammar = phrase_set(state, state.turn)
    >>> "read the board" in grammar.phrases
    True
"""

from voicejack.language.conversation import Conversation
from voicejack.hearing import Grammar, Heard
from voicejack.language.resolution import (
    Ask,
    Choice,
    Command,
    CommandName,
    Confirm,
    ConfirmPolicy,
    Dialog,
    LanguageSettings,
    NotUnderstood,
    NotUnderstoodCode,
    Resolution,
    Topic,
    summary,
)
from voicejack.language.resolver import Language, Resolver, phrase_set, resolve, sends_home_own

__all__ = [
    "Ask", "Choice", "Command", "CommandName", "Confirm", "ConfirmPolicy", "Conversation", "Dialog", "Grammar", "Heard",
    "Language", "LanguageSettings", "NotUnderstood", "NotUnderstoodCode", "Resolution", "Resolver", "Topic",
    "phrase_set", "resolve", "sends_home_own", "summary",
]
