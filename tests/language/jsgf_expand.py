"""A small, independent JSGF reader for the tests: every sentence a grammar accepts.

Handles what a finite grammar needs: rules, public rules, alternatives,
( ) groups, [ ] options, <rule> references, <NULL>/<VOID>. Recursion is
refused (our grammars are finite).
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"<[^>]+>|[()\[\]|]|[^\s()\[\]|<>;]+")


def rules_of(text: str) -> tuple[str, dict[str, str]]:
    """(name of the first public rule, rule name -> expansion text)."""
    body = re.sub(r"//[^\n]*", "", text)
    statements = [s.strip() for s in body.split(";") if s.strip()]
    assert statements[0].startswith("#JSGF"), "a JSGF grammar starts with its header"
    assert statements[1].startswith("grammar "), "then names the grammar"
    rules: dict[str, str] = {}
    public = ""
    for statement in statements[2:]:
        head, _, expansion = statement.partition("=")
        head = head.strip()
        is_public = head.startswith("public ")
        name = head.removeprefix("public ").strip()
        assert re.fullmatch(r"<[A-Za-z0-9_]+>", name), f"bad rule name {name!r}"
        assert name not in rules, f"rule {name} defined twice"
        rules[name] = expansion.strip()
        if is_public and not public:
            public = name
    assert public, "no public rule"
    return public, rules


def sentences(text: str) -> set[str]:
    public, rules = rules_of(text)
    memo: dict[str, set[tuple[str, ...]]] = {}

    def expand_rule(name: str, stack: tuple[str, ...]) -> set[tuple[str, ...]]:
        if name == "<NULL>":
            return {()}
        if name == "<VOID>":
            return set()
        assert name not in stack, f"recursive rule {name}"
        if name not in memo:
            tokens = _TOKEN.findall(rules[name])
            result, end = parse_alternatives(tokens, 0, stack + (name,))
            assert end == len(tokens), f"trailing tokens in {name}: {tokens[end:]}"
            memo[name] = result
        return memo[name]

    def parse_alternatives(tokens: list[str], at: int, stack: tuple[str, ...]) -> tuple[set[tuple[str, ...]], int]:
        result, at = parse_sequence(tokens, at, stack)
        while at < len(tokens) and tokens[at] == "|":
            more, at = parse_sequence(tokens, at + 1, stack)
            result |= more
        return result, at

    def parse_sequence(tokens: list[str], at: int, stack: tuple[str, ...]) -> tuple[set[tuple[str, ...]], int]:
        result: set[tuple[str, ...]] = {()}
        while at < len(tokens) and tokens[at] not in ("|", ")", "]"):
            token = tokens[at]
            if token in ("(", "["):
                inner, at = parse_alternatives(tokens, at + 1, stack)
                closing = ")" if token == "(" else "]"
                assert tokens[at] == closing, f"expected {closing}"
                at += 1
                if token == "[":
                    inner = inner | {()}
            elif token.startswith("<"):
                inner = expand_rule(token, stack)
                at += 1
            else:
                inner = {(token,)}
                at += 1
            result = {left + right for left in result for right in inner}
        return result, at

    return {" ".join(words) for words in expand_rule(public, ())}
