"""Narration: everything the player hears about options, outcomes and the board, as text.

All wording lives in ``catalogue.py``. ``Narrator`` is the one entry point;
behind it each module does one job: ``viewpoint`` (who is "you", "your
partner" or a name; marbles and places), ``options``, ``outcomes``,
``readouts`` (board lines, a player's line, where is, hand, score, last
card), ``announcements`` (match start, turn prompt, resume summary) and
``takeback`` (taking a move back: the offer, the news, why a move stands).
"""

from voicejack.narration.catalogue import ENGLISH, Catalogue
from voicejack.narration.narrator import Narrator, Verbosity

__all__ = ["ENGLISH", "Catalogue", "Narrator", "Verbosity"]
