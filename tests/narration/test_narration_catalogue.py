"""The message catalogue holds all the wording: a translation replaces it and touches no logic."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from narration_helpers import table

from voicejack.engine import GameState, LastCard, legal_moves, make_rules, new_game, parse_move, play
from voicejack.narration import ENGLISH, Catalogue, Narrator, Verbosity
from voicejack.engine.rules import time_out
from voicejack.narration.catalogue import TEMPLATES
from voicejack.narration.takeback import REFUSAL_REASONS

COMPLEX = make_rules(mode="complex")  # reads "play king blue one" as the sweep


def fields_of(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_template_has_a_full_and_a_brief_form_that_format() -> None:
    for key, forms in TEMPLATES.items():
        assert len(forms) == 2 and all(forms), key
        for form in forms:
            values = {name: "x" for name in fields_of(form)}
            assert "{" not in form.format(**values), key


def test_the_english_helpers_for_lists_plurals_and_articles() -> None:
    assert ENGLISH.join([]) == ""
    assert ENGLISH.join(["red 1"]) == "red 1"
    assert ENGLISH.join(["red 1", "blue 2"]) == "red 1 and blue 2"
    assert ENGLISH.join(["a", "b", "c"]) == "a, b and c"
    assert ENGLISH.cards(["A", "8", "8", "K"], brief=False) == "an ace, two eights and a king"
    assert ENGLISH.cards(["6", "6", "6"], brief=True) == "three sixes"
    assert ENGLISH.cells(1, brief=False) == "1 cell"
    assert ENGLISH.cells(12, brief=False) == "12 cells"
    assert ENGLISH.steps(1, brief=True) == "1 step"
    assert ENGLISH.card_count(0, brief=False) == "no cards"
    assert ENGLISH.card_count(1, brief=False) == "1 card"
    assert ENGLISH.possessive("Sara") == "Sara's"


# ------------------------------------------------------- a pseudo-translation

MARK = "§"


@dataclass(frozen=True)
class Pseudo(Catalogue):
    """A 'language' whose every word is a code: any English left in the output came from outside the catalogue."""

    templates: Mapping[str, tuple[str, str]] = field(
        default_factory=lambda: {
            key: tuple(MARK + key + "(" + " ".join("{" + name + "}" for name in sorted(fields_of(form))) + ")" for form in forms)
            for key, forms in TEMPLATES.items()
        }
    )
    colours: Mapping[str, str] = field(default_factory=lambda: {"red": "C0", "blue": "C1", "green": "C2", "yellow": "C3"})
    card_words: Mapping[str, str] = field(default_factory=lambda: {r: f"K{r}" for r in ENGLISH.card_words})
    card_plurals: Mapping[str, str] = field(default_factory=lambda: {r: f"KK{r}" for r in ENGLISH.card_words})
    count_words: Mapping[int, str] = field(default_factory=lambda: {2: "N2", 3: "N3", 4: "N4"})

    def join(self, items: Sequence[str]) -> str:
        return " & ".join(items)

    def series(self, items: Sequence[str]) -> str:
        return " , ".join(items)

    def clauses(self, items: Sequence[str]) -> str:
        return " ; ".join(items)

    def sentence(self, text: str) -> str:
        return text

    def default_name(self, colour: str) -> str:
        return "P" + self.colours[colour]

    def marble(self, colour: str, number: int) -> str:
        return f"{self.colours[colour]}M{number}"

    def possessive(self, name: str) -> str:
        return name + "~"

    def card_a(self, rank: str) -> str:
        return self.card_words[rank]


class Recording(Catalogue):
    """English, noting every template key used."""

    used: set[str] = set()

    def text(self, key: str, brief: bool, **fields: object) -> str:
        Recording.used.add(key)
        return super().text(key, brief, **fields)


def everything_said(narrator: Narrator, state: GameState) -> Iterator[str]:
    """Every kind of sentence about one position, for every listener."""
    for listener in (None, *state.rules.seats):
        yield from narrator.board_lines(state, listener)
        yield from (narrator.player_line(state, colour, listener) for colour in state.rules.seats)
        yield from narrator.match_start(state, listener)
        yield from narrator.resume_summary(state, listener)
        yield narrator.turn_prompt(state, listener)
        yield narrator.hand(state, listener)
        yield narrator.score(state, listener)
        yield narrator.last_card(state, listener)
        for marble in range(16):  # colours nobody plays included
            yield narrator.where_is(state, marble, listener)
        for move in legal_moves(state):
            yield narrator.describe_option(state, move, listener or state.turn)
            after, events = play(state, move)
            yield from narrator.outcome(state, events, after, listener)
            yield narrator.last_card(after, listener, recent=(state, events))
        yield from take_back_sentences(narrator, state, listener)
        if state.rules.timer_seconds and state.winner is None:  # ON11: the turn timer runs out
            after = state.copy()
            events = time_out(after)
            yield from narrator.outcome(state, events, after, listener)
            yield narrator.last_card(after, listener, recent=(state, events))


def take_back_sentences(narrator: Narrator, state: GameState, listener: str | None) -> Iterator[str]:
    """"undo": the offer, the news and every refusal. The phrase is the player's own notation (the language
    package's words, not the narrator's), passed through like a seat's name, so it is given in capitals."""
    yield narrator.undo_offer(True, 2.0)
    yield narrator.undo_offer(True, 2.0, "wake", "JACKAROO")  # the wake word is the player's, like a name
    yield narrator.undo_offer(True, 2.0, "push")
    yield narrator.undo_offer(False, 2.0)
    for colour in state.rules.seats:
        yield narrator.taken_back(state, colour, "PLAY ACE OUT", listener)
        yield narrator.undo_hint(state, colour, listener)
        for reason, names_a_seat in REFUSAL_REASONS.items():
            yield narrator.undo_refusal(state, reason, colour if names_a_seat else None)


def sample_positions() -> Iterator[GameState]:
    """Random play in every table kind, plus the corners random play rarely reaches."""
    for players, teams, mode in [(4, True, "complex"), (4, False, "complex"), (2, False, "regular"), (4, True, "regular")]:
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=5)
        rng = random.Random(5)
        for turn in range(400):
            if state.winner is not None:
                break
            if turn % 25 == 0:
                yield state
            state, _ = play(state, rng.choice(legal_moves(state)))
        yield state
    last_in = {"red": ["safe 2", "safe 3", "safe 4", 74]}
    yield table(marbles={**last_in, "green": [10]}, hands={"red": ["2", "3"]}, names={"blue": "SARA"})
    yield table(marbles={**last_in, "green": ["safe 1", "safe 2", "safe 3", "safe 4"]}, hands={"red": ["2", "3"]})
    yield table(marbles={**last_in}, hands={"red": ["2", "3"]}, teams=False, last_card=LastCard("blue", "3", parse_move("burn hand", COMPLEX)))
    yield table(marbles={"red": ["safe 1", 71], "blue": [72]}, hands={"red": ["7", "2"]}, last_card=LastCard("red", "9", parse_move("burn nine", COMPLEX)))
    yield table(marbles={"red": [5, 8], "blue": [12], "green": [16]}, hands={"red": ["K", "10", "J"]}, mode="complex")
    yield table(marbles={"red": [40], "yellow": [0], "blue": [19]}, hands={"red": ["J"]})
    yield table(marbles={"red": [30]}, hands={"red": ["K"]}, mode="complex", last_card=LastCard("red", "10", parse_move("play ten burn", COMPLEX)))
    yield table(marbles={"red": [5]}, hands={"red": ["9", "3"]}, forced_burn=True, mode="complex")
    yield table(marbles={"red": [5], "blue": [6, 7]}, hands={"red": ["9", "3"]})
    yield table(marbles={"red": ["safe 1", "safe 2", "safe 3", "safe 4"], "green": [30]}, hands={"red": ["6"]})
    yield table(marbles={"red": [10]}, hands={"red": ["2"], "blue": [], "green": [], "yellow": []}, dealer="yellow", deal_index=2)
    yield table(marbles={"red": [10]}, hands={"red": ["2"], "blue": [], "green": [], "yellow": []}, dealer="red")
    yield table(marbles={"blue": [5]}, hands={"blue": ["10", "2"], "green": []}, turn="blue", mode="complex")
    yield table(hands={c: [] for c in ("red", "blue", "green", "yellow")}, winner=("red", "green"))
    yield table(hands={"red": [], "green": []}, players=2, teams=False, winner=("red",))
    # The house rule sets (variants.md): the random 10 (KA11, ON9), the 5 on an opponent going round (KA10),
    # the whole hand burned with a marble out (ON3), the turn timer (ON11).
    yield table(marbles={"red": [10], "blue": [16]}, hands={"red": ["10", "5"]}, rules_set="karooty")
    yield table(marbles={"red": [10]}, hands={"red": ["10"], "blue": ["4", "6"]}, rules_set="online")
    yield table(marbles={"red": [17], "blue": [19]}, hands={"red": ["2", "3"]}, rules_set="online",
                last_card=LastCard("yellow", "3", parse_move("time out", COMPLEX)))
    yield table(marbles={"red": [30]}, hands={"red": ["K"]}, rules_set="karooty",
                last_card=LastCard("blue", "10", parse_move("play ten burn", COMPLEX)))
    yield table(marbles={"red": [30], "blue": [50]}, hands={"red": ["2"]}, rules_set="karooty",  # KA9's plough
                last_card=LastCard("blue", "K", parse_move("play king blue one", COMPLEX)))


POSITIONS = list(sample_positions())


def test_a_translated_catalogue_replaces_every_word() -> None:
    for verbosity in Verbosity:
        narrator = Narrator(verbosity, catalogue=Pseudo())
        for state in POSITIONS:
            for text in everything_said(narrator, state):
                leftover = re.sub(rf"{MARK}[a-z_.]+\(", " ", text)
                assert not re.search(r"[a-z]", leftover), f"wording outside the catalogue: {text!r}"


def test_every_template_is_used() -> None:
    Recording.used.clear()
    for verbosity in Verbosity:
        narrator = Narrator(verbosity, catalogue=Recording())
        for state in POSITIONS:
            for _ in everything_said(narrator, state):
                pass
    assert set(TEMPLATES) - Recording.used == set()
