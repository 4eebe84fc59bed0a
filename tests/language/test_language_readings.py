"""No move is ever played from an utterance with two readings (issue 11), and the forms of a position are built once."""

from __future__ import annotations

from collections.abc import Iterator

from lang_positions import POSITIONS
from lang_random import random_positions

from voicejack.engine import GameState, Move, apply_move, legal_moves
from voicejack.engine.cards import RANK_WORDS
from voicejack.language import Ask, Choice, Command, CommandName, Conversation, Dialog, Resolver, Topic, resolve
from voicejack.language.forms import MovesTarget, Pick, Target
from voicejack.language.normalise import key_of
from voicejack.narration.narrator import Narrator, Verbosity


def meaning(target: Target, dialog: Dialog) -> frozenset[Move] | Command:
    """What a form means: the moves it leaves open, or the command it is."""
    if isinstance(target, Pick):
        assert isinstance(dialog, Ask)
        then = dialog.choices[target.index].then
        return frozenset((then,)) if isinstance(then, Move) else then.moves()
    if isinstance(target, MovesTarget):
        return target.moves
    return target


def two_meanings(meanings: list[frozenset[Move] | Command]) -> bool:
    for one in meanings:
        for other in meanings:
            if isinstance(one, Command) or isinstance(other, Command):
                if one != other:
                    return True
            elif not (one <= other or other <= one):
                return True
    return False


def dialogs(state: GameState, resolver: Resolver) -> Iterator[Dialog]:
    """No question, each card's first question and the ones after it, and the table's numbered options."""
    yield None
    seat = state.turn
    for card in sorted({move.card for move in legal_moves(state) if move.card}):  # burn hand names no card
        asked = resolver.resolve(state, seat, RANK_WORDS[card])
        if isinstance(asked, Ask):
            yield asked
            yield from (choice.then for choice in asked.choices if isinstance(choice.then, Ask))
    options = Narrator(Verbosity.BRIEF).describe_options(state, seat)
    yield Ask("Your options.", tuple(Choice(d, m, (m.phrase,)) for m, d in options), Topic.OPTION)


def test_no_spoken_form_with_two_meanings_ever_plays_a_move() -> None:
    resolver = Resolver()
    checked = 0
    for state in list(POSITIONS.values()) + list(random_positions(60, seed=11)):
        if state.winner is not None:
            continue
        for dialog in dialogs(state, resolver):
            language = resolver.language(state, state.turn, dialog)
            for phrase in language.grammar().phrases:
                entries = language.by_key.get(key_of(phrase), [])  # none: an illegal move, listened for to refuse it
                if {"step", "steps"} & set(phrase.split()):
                    # "one step" names the value; only a bare "one" is also read as a choice's number
                    entries = [entry for entry in entries if not entry.option_reading]
                if not two_meanings([meaning(entry.target, language.dialog) for entry in entries]):
                    continue
                result = resolver.resolve(state, state.turn, phrase, dialog)
                assert not isinstance(result, Move), (phrase, dialog, result)
                checked += 1
    assert checked > 100  # the property was really exercised


def test_the_forms_of_a_position_are_built_once_per_seat_and_question() -> None:
    resolver = Resolver()
    state = POSITIONS["mid"].copy()
    first = resolver.language(state, "red")
    assert resolver.language(state, "red") is first
    assert resolver.phrase_set(state, "red") is first.grammar()
    asked = resolver.resolve(state, "red", "seven")
    assert isinstance(asked, Ask)
    assert resolver.language(state, "red", asked) is resolver.language(state, "red", asked) is not first
    assert resolver.language(state, "blue") is not first
    apply_move(state, next(m for m in legal_moves(state) if m.phrase == "play nine red one"))
    assert resolver.language(state, "blue") is not first  # the same object, changed in place: built afresh


def test_next_previous_and_a_players_marbles() -> None:
    mid = POSITIONS["mid"]  # four players in teams: red's partner is green
    expected = {
        "next": Command(CommandName.NEXT), "next line": Command(CommandName.NEXT),
        "previous": Command(CommandName.PREVIOUS), "back": Command(CommandName.PREVIOUS),
        "previous line": Command(CommandName.PREVIOUS),
        "blue's marbles": Command(CommandName.MARBLES, colour="blue"),
        "where are blue's marbles": Command(CommandName.MARBLES, colour="blue"),
        "where are the yellow marbles": Command(CommandName.MARBLES, colour="yellow"),
        "read blue": Command(CommandName.MARBLES, colour="blue"),
        "my marbles": Command(CommandName.MARBLES, colour="red"),
        "my partner's marbles": Command(CommandName.MARBLES, colour="green"),
    }
    for text, command in expected.items():
        assert resolve(mid, "red", text) == command, text
    assert resolve(mid, "blue", "my partner's marbles") == Command(CommandName.MARBLES, colour="yellow")
    listing = set(Resolver().phrase_set(mid, "red", listing=True).phrases)  # the board is being read out
    assert {"next", "next line", "previous", "previous line", "blue marbles", "read blue", "my marbles",
            "my partner marbles"} <= listing
    spoken = set(Resolver().phrase_set(mid, "red").phrases)
    assert not {"next", "next line", "previous", "previous line"} & spoken and spoken == listing - {
        "next", "next line", "previous", "previous line"}
    two = POSITIONS["two"]  # no partners with two players
    assert not isinstance(resolve(two, "red", "my partner's marbles"), Command)
    assert resolve(two, "red", "green's marbles") == Command(CommandName.MARBLES, colour="green")


def test_a_conversation_answers_from_the_same_forms_its_grammar_came_from() -> None:
    state = POSITIONS["mid"]
    conversation = Conversation("red")
    grammar = conversation.grammar(state)
    assert conversation.grammar(state) is grammar
    assert isinstance(conversation.hear(state, "seven"), Ask)
    assert conversation.grammar(state) is not grammar  # the question's answers are listened for now
