"""What a recogniser (or the keyboard) hands the command language, and what it may listen for.

These two types are the contract between voicejack.speech (recognisers)
and voicejack.language (resolving what was heard); they live below both so
that neither has to import the other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Heard:
    """One utterance as recognised: the best text, optional per-word confidences, other hypotheses best first.

    ``word_levels``, when the recogniser measures them, are each word's loudness in dB relative to the
    loudest word of the utterance (0 for that one): a word far quieter than the rest was more likely made
    of the room (other talkers, music) than said by the player."""

    text: str
    word_confidences: tuple[float, ...] = ()
    alternatives: tuple[str, ...] = ()
    typed: bool = False  # typed input: digits allowed, no confidence
    word_levels: tuple[float, ...] = ()
    doubted: bool = False  # the recogniser asks the game to check with the player before acting on it


@dataclass(frozen=True, slots=True)
class Grammar:
    """Every sentence that may be heard in the current state, in lowercase words.

    ``obeyed``: the sentences among them the game carries out as soon as they are heard (commands; a move
    heard unsure is confirmed first). Table chatter forced onto the grammar ends on one of these, so a
    recogniser may check them harder. ``confirmed``: those of ``obeyed`` the game can ask about ("Did you say
    read the board?") when a recogniser hands them over doubted (``Heard.doubted``) rather than refusing
    them; the others, answers among them, are better said again. ``refused``: the moves among them the game
    turns down with a reason (not legal now, or not this player's turn), listened for so that they are refused
    rather than heard as the nearest legal move; a recogniser may check them harder too, since hearing one
    wrongly costs the player a refusal they did not ask for. ``complete``: sentences that longer ones begin, but
    only ever with the same meaning ("play seven red one" when red one cannot split the seven, so the only way
    on is "... seven"): a recogniser may end the utterance on one without waiting to hear whether more comes.
    ``read_out``: those of ``obeyed`` that only make the game read something out ("help", "read the board"):
    heard wrongly, one costs a moment of speech the player can stop, so a recogniser may obey them on less
    evidence. ``answers``: while a question is open, the forms of yes and of no ("yes", "yeah", "yep" ...;
    "no", "nope"), one set each: a recogniser may count the forms of one answer as one, since it matters only
    which answer was given, not in which words. ``asks``: while no question is open, sentences that name
    several moves and no more ("play ace", "burn"), which the game answers with a question about them: heard
    wrongly, one costs a question the player can cancel, never a move. ``moves``: the sentences that name one
    move and nothing else, one set per move ("play five red two", "play five number two", "play the five on red
    two"): a recogniser may count the words of one move as one, since it matters only which move was named."""

    phrases: tuple[str, ...]
    obeyed: frozenset[str] = frozenset()
    confirmed: frozenset[str] = frozenset()
    refused: frozenset[str] = frozenset()
    complete: frozenset[str] = frozenset()
    read_out: frozenset[str] = frozenset()
    answers: tuple[frozenset[str], ...] = ()
    asks: frozenset[str] = frozenset()
    moves: tuple[frozenset[str], ...] = ()

    def words(self) -> set[str]:
        return {word for phrase in self.phrases for word in phrase.split()}

    def jsgf(self, name: str = "voicejack") -> str:
        """The same sentences as a compact JSGF grammar (pocketsphinx); public rule ``<name>``."""
        from voicejack.hearing.jsgf import to_jsgf

        return to_jsgf(self.phrases, name)
