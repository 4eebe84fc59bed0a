"""A plain JSGF grammar listing whole sentences, for when the command language supplies none."""

from __future__ import annotations

import re
from collections.abc import Iterable

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
