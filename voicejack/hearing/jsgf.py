"""A compact JSGF grammar that accepts exactly a list of phrases.

The phrases are folded into the minimal acyclic automaton (a trie whose
identical subtrees are merged), and each state becomes one rule: words
sharing a prefix or a suffix are written once, as alternations. States
entered from a single place are written inline. The grammar accepts the
same sentences as the list, no more, no fewer (tests check this).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

_RULE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_INLINE_UP_TO = 12  # characters: "(one | two)" is shorter written out than named


@dataclass(slots=True)
class _State:
    arcs: dict[str, int] = field(default_factory=dict)
    final: bool = False


class _Automaton:
    """Minimal deterministic acyclic automaton over words."""

    def __init__(self, phrases: Iterable[str]) -> None:
        trie: list[_State] = [_State()]
        for phrase in phrases:
            node = 0
            for word in phrase.split():
                child = trie[node].arcs.get(word)
                if child is None:
                    child = len(trie)
                    trie.append(_State())
                    trie[node].arcs[word] = child
                node = child
            trie[node].final = True
        self.states: list[_State] = []
        registry: dict[tuple[bool, tuple[tuple[str, int], ...]], int] = {}
        self.root = self._minimise(trie, 0, registry)

    def _minimise(self, trie: list[_State], node: int, registry: dict[tuple[bool, tuple[tuple[str, int], ...]], int]) -> int:
        arcs = tuple(sorted((word, self._minimise(trie, child, registry)) for word, child in trie[node].arcs.items()))
        signature = (trie[node].final, arcs)
        found = registry.get(signature)
        if found is None:
            found = len(self.states)
            self.states.append(_State(dict(arcs), trie[node].final))
            registry[signature] = found
        return found


def to_jsgf(phrases: Iterable[str], name: str = "voicejack") -> str:
    """JSGF text whose public rule ``<name>`` accepts exactly ``phrases``."""
    if not _RULE_NAME.match(name):
        raise ValueError(f"a JSGF grammar name is letters, digits and underscores, not {name!r}")
    phrase_list = [" ".join(p.split()) for p in phrases if p.split()]
    header = f"#JSGF V1.0;\n\ngrammar {name};\n\n"
    if not phrase_list:
        return header + f"public <{name}> = <VOID>;\n"
    automaton = _Automaton(phrase_list)
    states = automaton.states
    incoming = [0] * len(states)
    for state in states:
        for target in state.arcs.values():
            incoming[target] += 1
    named: dict[int, str] = {}
    rules: list[str] = []
    written: dict[int, str] = {}

    def reference(index: int) -> str:
        text = expansion(index)
        # Shared states become rules; states used once, or too short to be worth a name, are written inline.
        if incoming[index] <= 1 or len(text) <= _INLINE_UP_TO:
            return "(" + text + ")" if _needs_group(states[index]) else text
        if index not in named:
            named[index] = f"<s{len(named) + 1}>"
            rules.append(f"{named[index]} = {text};")
        return named[index]

    def expansion(index: int) -> str:
        if index in written:
            return written[index]
        state = states[index]
        by_target: dict[int, list[str]] = {}
        for word, target in sorted(state.arcs.items()):
            by_target.setdefault(target, []).append(word)
        alternatives: list[str] = []
        for target, words in by_target.items():
            head = words[0] if len(words) == 1 else "(" + " | ".join(words) + ")"
            if states[target].arcs:
                alternatives.append(f"{head} {reference(target)}")
            else:
                alternatives.append(head)
        body = " | ".join(alternatives)
        written[index] = f"[{body}]" if state.final and state.arcs else body
        return written[index]

    top = expansion(automaton.root)
    return header + f"public <{name}> = {top};\n" + "".join(f"{rule}\n" for rule in rules)


def _needs_group(state: _State) -> bool:
    """Inline text must be bracketed unless it is a single alternative."""
    if state.final:
        return False  # already wrapped in [...]
    targets = set(state.arcs.values())
    return len(targets) > 1


_TOKEN = re.compile(r"^[a-z][a-z']*$")


def sentences_jsgf(phrases: Iterable[str], name: str = "voicejack") -> str:
    """One public rule whose alternatives are the given sentences (words must be plain lowercase)."""
    unique = sorted({" ".join(phrase.split()) for phrase in phrases if phrase.strip()})
    if not unique:
        raise ValueError("a JSGF grammar needs at least one sentence")
    for sentence in unique:
        for word in sentence.split():
            if not _TOKEN.match(word):
                raise ValueError(f"{word!r} cannot be a JSGF token (plain lowercase words only)")
    body = "\n    | ".join(unique)
    return f"#JSGF V1.0;\ngrammar {name};\npublic <utterance> =\n    {body};\n"
