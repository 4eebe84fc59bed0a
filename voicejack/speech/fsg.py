"""A finite-state grammar with an explicit prior for every sentence, for pocketsphinx.

Why not the JSGF text: pocketsphinx turns a JSGF alternation into equal
transition probabilities, so a sentence's prior depends on how the
grammar happens to be folded. In the compact JSGF of a typical turn the
26 one-word commands share a single alternative at the top, so "help"
started with about 1/26 of the prior of "bring out" and lost to longer
sentences and to other short words on small acoustic differences.

Here every sentence gets the prior its weight says (by default all
sentences equally likely): the sentences are put in a trie, each
transition gets the share of the weight that lies beyond it (weight
pushing, so the probabilities along any sentence multiply to its own
share), and states with the same future are then merged, which keeps the
automaton about as small as the JSGF one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

#: (from state, to state, probability, word or None for an epsilon transition into the final state)
Transition = tuple[int, int, float, str | None]


@dataclass(slots=True)
class _Node:
    arcs: dict[str, int] = field(default_factory=dict)
    weight_here: float = 0.0  # weight of the sentence ending at this node (0: none does)
    weight_below: float = 0.0  # this node's own plus every longer sentence's weight


@dataclass(frozen=True, slots=True)
class SentenceGraph:
    start: int
    final: int
    transitions: tuple[Transition, ...]
    states: int

    def sentence_probability(self, sentence: str) -> float:
        """The prior the graph gives ``sentence`` (0 if it is not accepted); for tests."""
        state, probability = self.start, 1.0
        for word in sentence.split():
            for source, target, p, label in self.transitions:
                if source == state and label == word:
                    state, probability = target, probability * p
                    break
            else:
                return 0.0
        for source, target, p, label in self.transitions:
            if source == state and label is None and target == self.final:
                return probability * p
        return 0.0


def sentence_graph(phrases: Iterable[str], weight: Callable[[str], float] | None = None) -> SentenceGraph:
    """The automaton accepting exactly ``phrases``, each with prior weight(phrase) / total."""
    nodes = [_Node()]
    for phrase in dict.fromkeys(" ".join(p.split()) for p in phrases if p.split()):
        at = 0
        for word in phrase.split():
            child = nodes[at].arcs.get(word)
            if child is None:
                child = len(nodes)
                nodes.append(_Node())
                nodes[at].arcs[word] = child
            at = child
        nodes[at].weight_here = max(1e-9, weight(phrase) if weight is not None else 1.0)
    if not nodes[0].arcs:
        raise ValueError("a grammar needs at least one sentence")
    # Children always come after their parent in the list: total the weights from the back.
    for node in reversed(nodes):
        node.weight_below = node.weight_here + sum(nodes[child].weight_below for child in node.arcs.values())

    # Merge nodes with the same future (same end probability and the same arcs to merged nodes).
    merged: dict[int, int] = {}
    registry: dict[tuple[object, ...], int] = {}
    outgoing: list[list[tuple[str | None, float, int]]] = []
    for index in range(len(nodes) - 1, -1, -1):
        node = nodes[index]
        arcs: list[tuple[str | None, float, int]] = [
            (word, nodes[child].weight_below / node.weight_below, merged[child]) for word, child in sorted(node.arcs.items())
        ]
        if node.weight_here:
            arcs.append((None, node.weight_here / node.weight_below, -1))
        signature = tuple((word, round(p, 9), target) for word, p, target in arcs)
        found = registry.get(signature)
        if found is None:
            found = len(outgoing)
            outgoing.append(arcs)
            registry[signature] = found
        merged[index] = found
    final = len(outgoing)
    transitions = tuple(
        (state, final if target == -1 else target, p, word)
        for state, arcs in enumerate(outgoing)
        for word, p, target in arcs
    )
    return SentenceGraph(merged[0], final, transitions, final + 1)
