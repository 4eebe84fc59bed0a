"""Grammar sizes and resolution times, as tables: ``python3 benchmarks/language.py``.

Measures, for a few fixed positions and a sample of random ones: legal
moves, phrases in the list (vosk), distinct words, the JSGF text
(pocketsphinx), and how long building the phrase set and resolving take.
"rebuilt" times an utterance when the forms of the position are put
together again for it (as before the resolver kept them per position, seat
and question); "kept" when they are taken from the resolver, as now.
Nothing here is asserted; the numbers go in reports.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from voicejack.engine import GameState, legal_moves, make_rules, new_game, play
from voicejack.language import resolver as resolver_module
from voicejack.hearing import Heard
from voicejack.language.resolution import Ask
from voicejack.language.resolver import Resolver


def _table(hands: dict[str, list[str]], marbles: dict[str, list[Any]], mode: str = "regular") -> GameState:
    from voicejack.tablefile import table_from_dict

    home = ["home"] * 4
    return table_from_dict({
        "format": "voicejack-table/1", "mode": mode, "teams": True, "turn": "red",
        "players": [{"colour": c, "hand": h} for c, h in hands.items()],
        "marbles": {c: (list(marbles.get(c, [])) + home)[:4] for c in hands},
    })


def fixed_positions() -> dict[str, GameState]:
    others = {"blue": ["2"], "green": ["2"], "yellow": ["2"]}
    return {
        "first turn (K 6 4 9, all home)": _table({"red": ["K", "6", "4", "9"], **others}, {}),
        "middle game (9 7 A J, 2 out)": _table(
            {"red": ["9", "7", "A", "J"], **others},
            {"red": [10, 30, "home", "home"], "blue": [25], "green": [39], "yellow": [50]},
        ),
        "busy complex (7 J A 5 K, all 16 out)": _table(
            {"red": ["7", "J", "A", "5", "K"], **others},
            {"red": [3, 12, 25, 33], "blue": [21, 40, 46, 70], "green": [44, 52, 60, 66], "yellow": [5, 15, 28, 59]},
            mode="complex",
        ),
    }


def random_positions(count: int, seed: int = 1) -> Iterator[GameState]:
    rng = random.Random(seed)
    shapes = ((4, True, "regular"), (4, False, "complex"), (2, False, "regular"))
    made = 0
    while made < count:
        players, teams, mode = shapes[made % len(shapes)]
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(20, 200)):
            if state.winner is not None:
                break
            state, _ = play(state, rng.choice(legal_moves(state)))
        if state.winner is None:
            made += 1
            yield state


def _timed(action: Callable[[], object], repeat: int = 5, resolver: Resolver | None = None,
           new_position: bool = True) -> float:
    """Median milliseconds of ``action``, the resolver's forms forgotten each time (and, for a new position, the
    legal moves and base forms too)."""
    times = []
    for _ in range(repeat):
        if new_position:
            resolver_module._BASE_CACHE.clear()
        if resolver is not None:
            resolver.clear_cache()
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _row(name: str, state: GameState, resolver: Resolver) -> list[str]:
    grammar = resolver.phrase_set(state, state.turn)
    jsgf = grammar.jsgf()
    vosk = json.dumps(list(grammar.phrases), ensure_ascii=False)
    build = _timed(lambda: resolver.phrase_set(state, state.turn), resolver=resolver)
    moves = legal_moves(state)
    exact_text = moves[0].phrase
    mangled = " ".join(exact_text.split()[:-1] + ["banana"])
    resolver.phrase_set(state, state.turn)  # warm: the table builds the grammar before it listens
    rebuilt = _timed(lambda: resolver.resolve(state, state.turn, Heard(exact_text)), resolver=resolver,
                     new_position=False)
    exact = _timed_warm(lambda: resolver.resolve(state, state.turn, Heard(exact_text)))
    fuzzy = _timed_warm(lambda: resolver.resolve(state, state.turn, Heard(mangled)))
    return [name, str(len(moves)), str(len(grammar.phrases)), str(len(grammar.words())), str(len(vosk)),
            str(len(jsgf)), str(jsgf.count(" = ")), f"{build:.1f}", f"{rebuilt:.2f}", f"{exact:.2f}", f"{fuzzy:.1f}"]


def _timed_warm(action: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _print_table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    print(" | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("-|-".join("-" * w for w in widths))
    for row in rows:
        print(" | ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))))


def main() -> None:
    resolver = Resolver()
    header = ["position", "moves", "phrases", "words", "vosk json B", "jsgf B", "jsgf rules",
              "build ms", "exact rebuilt ms", "exact kept ms", "fuzzy ms"]
    rows = [_row(name, state, resolver) for name, state in fixed_positions().items()]
    mid = fixed_positions()["middle game (9 7 A J, 2 out)"]
    for words in ("seven", "jack"):
        asked = resolver.resolve(mid, "red", words)
        assert isinstance(asked, Ask)
        grammar = resolver.phrase_set(mid, "red", asked)
        answer = asked.choices[0].answers[0]
        rebuilt = _timed(lambda: resolver.resolve(mid, "red", Heard(answer), asked), resolver=resolver,
                         new_position=False)
        resolver.phrase_set(mid, "red", asked)
        kept = _timed_warm(lambda: resolver.resolve(mid, "red", Heard(answer), asked))
        rows.append([f"middle game, after '{words}'", "-", str(len(grammar.phrases)), str(len(grammar.words())),
                     str(len(json.dumps(list(grammar.phrases)))), str(len(grammar.jsgf())),
                     str(grammar.jsgf().count(" = ")), "-", f"{rebuilt:.2f}", f"{kept:.2f}", "-"])
    print("Grammar sizes and times (median of 5; build = a new position; exact = the same position again,")
    print("its forms rebuilt for the utterance or kept by the resolver)\n")
    _print_table(header, rows)

    sample = list(random_positions(60))
    stats = []
    for state in sample:
        grammar = resolver.phrase_set(state, state.turn)
        stats.append((len(legal_moves(state)), len(grammar.phrases), len(grammar.words()), len(grammar.jsgf())))
    print(f"\nRandom positions from seeded games ({len(sample)} positions, player to act)\n")
    columns = list(zip(*stats, strict=True))
    _print_table(["measure", "min", "median", "max"], [
        [name, str(min(col)), str(int(statistics.median(col))), str(max(col))]
        for name, col in zip(("legal moves", "phrases", "words", "jsgf bytes"), columns, strict=True)
    ])


if __name__ == "__main__":
    main()
