"""Table files (shared/spec/table-format.md): load with full validation, save atomically.

Every problem is reported as one TableFileError line naming the key and
what is wrong, so the CLI can print it and exit with status 2: hostile
files too (nested thousands deep, numbers of thousands of digits, NaN,
huge files, a wrong type anywhere). The invariants of a valid table are
the engine's (engine/validity.py); this module reads the format.
"""

from __future__ import annotations

import base64
import json
import os
import random
import struct
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any, Final

from voicejack.engine.board import (
    COLOURS,
    HOME,
    SAFE_OFFSET,
    SAFE_PLACES,
    SEATS_FOUR,
    SEATS_TWO,
    TRACK_CELLS,
    colour_marbles,
    marble_id,
    position_to_text,
)
from voicejack.engine.cards import RANKS, full_deck
from voicejack.engine.moves import Move, PhraseSyntaxError, parse_move
from voicejack.engine.rulesets import MAX_TURN_SECONDS, RULE_SET_NAMES, VOICEJACK, rule_set
from voicejack.engine.state import MODES, GameState, LastCard, Rules, Seat, all_home, winner_from_marbles
from voicejack.engine.types import Colour, Position, Rank
from voicejack.engine.validity import InvalidStateError, check_state

FORMAT: Final = "voicejack-table/1"
REQUIRED_KEYS: Final = ("format", "mode", "players", "marbles", "turn")
OPTIONAL_KEYS: Final = (
    "teams", "forced_burn", "dealer", "deal", "pile", "discard", "last_card",
    "seed", "rng", "winner", "history", "rules", "turn_seconds",
)
PLAYER_KEYS: Final = ("colour", "name", "kind", "hand")
RNG_PREFIX: Final = "mt19937:"
#: Far beyond any save (a long match's file is some tens of KiB); a bigger file is refused unread.
MAX_FILE_BYTES: Final = 4 * 2**20
#: Enough for any seed a person would type; Python itself refuses numbers of over 4300 digits.
MAX_INT_DIGITS: Final = 100
SAFE_PLACE_NAMES: Final = tuple(str(place) for place in range(1, SAFE_PLACES + 1))


class TableFileError(ValueError):
    """A table file that cannot be loaded; the message says which key and why."""


def load_table(path: str | os.PathLike[str]) -> GameState:
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise TableFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise TableFileError(f"{path}: is a folder, not a table file") from None
    except OSError as error:
        raise TableFileError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        return table_from_text(raw)
    except TableFileError as error:
        raise TableFileError(f"{path}: {error}") from None


def table_from_text(raw: str | bytes) -> GameState:
    """The table a file's contents describe; TableFileError, one line, for anything else."""
    if len(raw) > MAX_FILE_BYTES:
        raise _fail(f"larger than {MAX_FILE_BYTES // 2**20} MiB: not a table file")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _fail("not UTF-8 text") from None
    try:
        data = json.loads(raw, parse_constant=_refuse_constant, parse_int=_read_int)
    except json.JSONDecodeError as error:
        raise _fail(f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except RecursionError:
        raise _fail("not a table file: its JSON is nested too deeply") from None
    return table_from_dict(data)


def _refuse_constant(name: str) -> Any:
    raise _fail(f"not valid JSON: {name} is not a JSON value")


def _read_int(digits: str) -> int:
    # Python refuses to convert very long numbers (a ValueError deep inside json); no table needs them.
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _fail(f"a number with {len(digits.lstrip('-'))} digits: a table file has none over {MAX_INT_DIGITS}")
    return int(digits)


def save_table(state: GameState, path: str | os.PathLike[str]) -> None:
    """Write the table so that a crash leaves either the old file or the new one, never half of one."""
    target = Path(path)
    text = json.dumps(table_to_dict(state), indent=1, ensure_ascii=False) + "\n"
    directory = target.parent if str(target.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# --------------------------------------------------------------------------
# Writing


def table_to_dict(state: GameState) -> dict[str, Any]:
    rules = state.rules
    data: dict[str, Any] = {"format": FORMAT, "mode": rules.mode}
    if rules.rule_set != VOICEJACK:
        data["rules"] = rules.rule_set
    if rules.book.has_timer:
        data["turn_seconds"] = rules.timer_seconds
    if rules.players == 4:
        data["teams"] = rules.teams
    data["players"] = [
        {"colour": seat.colour, "name": seat.name, "kind": seat.kind, "hand": list(state.hands[seat.colour])}
        for seat in state.seats
    ]
    data["marbles"] = {
        colour: [_position_to_json(state.marbles[marble]) for marble in colour_marbles(colour)]
        for colour in rules.seats
    }
    data["turn"] = state.turn
    data["forced_burn"] = state.forced_burn
    data["dealer"] = state.dealer
    data["deal"] = state.deal_index
    data["pile"] = list(state.pile)
    data["discard"] = list(state.discard)
    if state.last_card is not None:
        last = state.last_card
        data["last_card"] = {"colour": last.colour, "card": last.card, "phrase": last.phrase}
    data["rng"] = encode_rng(state.rng)
    if state.winner is not None:
        data["winner"] = "+".join(state.winner)
    data["history"] = [{"colour": colour, "phrase": move.phrase} for colour, move in state.history]
    return data


def _position_to_json(position: Position) -> int | str:
    return position if 0 <= position < TRACK_CELLS else position_to_text(position)


def encode_rng(rng: random.Random) -> str:
    version, internal, gauss = rng.getstate()
    if version != 3 or gauss is not None:
        raise ValueError("unexpected random generator state")
    return RNG_PREFIX + base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode("ascii")


def decode_rng(text: str) -> random.Random:
    if not isinstance(text, str) or not text.startswith(RNG_PREFIX):
        raise TableFileError("'rng' is not a generator state written by VoiceJack")
    try:
        raw = base64.b64decode(text[len(RNG_PREFIX):], validate=True)
        internal = struct.unpack(f"<{len(raw) // 4}I", raw)
        rng = random.Random()
        rng.setstate((3, internal, None))
    except (ValueError, struct.error, TypeError):
        raise TableFileError("'rng' is damaged: it is not a generator state written by VoiceJack") from None
    return rng


# --------------------------------------------------------------------------
# Reading and validating


def _fail(message: str) -> TableFileError:
    return TableFileError(message)


def _show(value: Any) -> str:
    """A value as JSON for a message: one line, short, ASCII (so it prints anywhere)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _is_text(value: str) -> bool:
    """True unless the string holds lone surrogates (JSON allows them; no file or terminal takes them)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _key(key: Any) -> str:
    """A key as it reads in a message: 'marbles' style, escaped and shortened like any value."""
    shown = _show(key)
    return f"'{shown[1:-1]}'" if isinstance(key, str) else shown


def table_from_dict(data: Any) -> GameState:
    if not isinstance(data, dict):
        raise _fail("a table file holds one JSON object")
    unknown = [key for key in data if key not in REQUIRED_KEYS and key not in OPTIONAL_KEYS]
    if unknown:
        raise _fail(f"unknown key {_key(unknown[0])} (allowed: {', '.join(REQUIRED_KEYS + OPTIONAL_KEYS)})")
    for key in REQUIRED_KEYS:
        if key not in data:
            raise _fail(f"missing key '{key}'")
    if data["format"] != FORMAT:
        raise _fail(f"'format' must be \"{FORMAT}\", not {_show(data['format'])}")
    mode = data["mode"]
    if not isinstance(mode, str) or mode not in MODES:
        raise _fail(f"'mode' must be \"regular\" or \"complex\", not {_show(mode)}")

    seats, hands = _read_players(data["players"])
    colours = tuple(seat.colour for seat in seats)
    teams = _read_teams(data, len(colours))
    rules = _read_rules(data, mode, teams, colours)
    marbles = _read_marbles(data["marbles"], colours)

    turn = _read_colour(data, "turn", colours)
    forced_burn = data.get("forced_burn", False)
    if not isinstance(forced_burn, bool):
        raise _fail("'forced_burn' must be true or false")
    dealer = _read_colour(data, "dealer", colours) if "dealer" in data else rules.previous_seat(turn)
    deal_index = data.get("deal", 0)
    cycle = 3 if len(colours) == 4 else 6
    if not isinstance(deal_index, int) or isinstance(deal_index, bool) or not 0 <= deal_index < cycle:
        raise _fail(f"'deal' must be a whole number from 0 to {cycle - 1}")

    discard = _read_cards(data.get("discard", []), "discard")
    pile_given = "pile" in data
    pile = _read_cards(data["pile"], "pile") if pile_given else []
    winner = _read_winner(data, rules) if "winner" in data else winner_from_marbles(rules, marbles)

    if "rng" in data:
        rng = decode_rng(data["rng"])
    else:
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise _fail("'seed' must be a whole number")
        rng = random.Random(seed)
    if not pile_given:
        remaining = Counter(full_deck())
        remaining.subtract(card for cards in (*hands.values(), discard) for card in cards)
        pile = [rank for rank in RANKS for _ in range(remaining[rank])]
        rng.shuffle(pile)

    state = GameState(
        rules=rules,
        seats=seats,
        marbles=marbles,
        hands=hands,
        turn=turn,
        rng=rng,
        dealer=dealer,
        deal_index=deal_index,
        pile=pile,
        discard=discard,
        forced_burn=forced_burn,
        last_card=_read_last_card(data["last_card"], rules) if "last_card" in data else None,
        winner=winner,
        history=_read_history(data.get("history", []), rules),
    )
    try:
        check_state(state)
    except InvalidStateError as error:
        raise _fail(str(error)) from None
    return state


def _read_rules(data: dict[str, Any], mode: str, teams: bool, colours: tuple[Colour, ...]) -> Rules:
    """The rule set and its turn timer (variants.md, "Table files")."""
    name = data.get("rules", VOICEJACK)
    if not isinstance(name, str) or name not in RULE_SET_NAMES:
        raise _fail(f"'rules' must be \"voicejack\", \"karooty\" or \"online\", not {_show(name)}")
    if name != VOICEJACK and mode != "regular":
        raise _fail(f"'mode' is {_show(mode)}, but the {name} rules have one version: 'mode' must be \"regular\"")
    book = rule_set(name, mode)
    if book.teams_only and not (len(colours) == 4 and teams):
        raise _fail(f"'rules' is \"{name}\", which is played by 4 players in teams only ('teams' true, KA1)")
    turn_seconds = None
    if "turn_seconds" in data:
        turn_seconds = data["turn_seconds"]
        if not book.has_timer:
            raise _fail(f"'turn_seconds' is only for the \"online\" rules (ON11), not for \"{name}\"")
        if not isinstance(turn_seconds, int) or isinstance(turn_seconds, bool) or not (
            0 <= turn_seconds <= MAX_TURN_SECONDS
        ):
            raise _fail(f"'turn_seconds' must be a whole number from 0 to {MAX_TURN_SECONDS}, not {_show(turn_seconds)}")
    return Rules(mode=mode, teams=teams, seats=colours, rule_set=name, turn_seconds=turn_seconds)


def _read_players(players: Any) -> tuple[tuple[Seat, ...], dict[Colour, list[Rank]]]:
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise _fail("'players' must be a list of player objects")
    if len(players) not in (2, 4):
        raise _fail(f"'players' lists {len(players)} players: Jackaroo is played by 2 or 4, never 3")
    seats: list[Seat] = []
    hands: dict[Colour, list[Rank]] = {}
    for index, player in enumerate(players):
        where = f"'players' entry {index + 1}"
        unknown = [key for key in player if key not in PLAYER_KEYS]
        if unknown:
            raise _fail(f"{where}: unknown key {_key(unknown[0])} (allowed: {', '.join(PLAYER_KEYS)})")
        for key in ("colour", "hand"):
            if key not in player:
                raise _fail(f"{where}: missing key '{key}'")
        colour = player["colour"]
        if not isinstance(colour, str) or colour not in COLOURS:
            raise _fail(f"{where}: 'colour' must be one of {', '.join(COLOURS)}, not {_show(colour)}")
        name = player.get("name", colour.capitalize())
        kind = player.get("kind", "human" if index == 0 else "bot")
        if not isinstance(name, str) or not name.strip() or not _is_text(name):
            raise _fail(f"{where}: 'name' must be a non-empty string")
        if not isinstance(kind, str) or not _is_text(kind) or not (
            kind in ("human", "bot") or (kind.startswith("bot:") and len(kind) > 4)
        ):
            raise _fail(f"{where}: 'kind' must be \"human\", \"bot\" or \"bot:<level>\", not {_show(kind)}")
        seats.append(Seat(colour, name, kind))
        hands[colour] = _read_cards(player["hand"], f"{where} 'hand'")
    colours = tuple(seat.colour for seat in seats)
    expected = SEATS_FOUR if len(colours) == 4 else SEATS_TWO
    if colours != expected:
        raise _fail(f"seat colours must be {', '.join(expected)} in that order, not {', '.join(map(str, colours))}")
    return tuple(seats), hands


def _read_teams(data: dict[str, Any], players: int) -> bool:
    if "teams" not in data:
        if players == 4:
            raise _fail("missing key 'teams': with 4 players say true (teams) or false (every player for themselves)")
        return False
    teams = data["teams"]
    if not isinstance(teams, bool):
        raise _fail("'teams' must be true or false")
    if teams and players == 2:
        raise _fail("'teams' is true with 2 players: 2 players never have partners")
    return teams


def _read_cards(cards: Any, where: str) -> list[Rank]:
    if not isinstance(cards, list):
        raise _fail(f"{where} must be a list of cards")
    for card in cards:
        if card not in RANKS or not isinstance(card, str):
            raise _fail(f"{where}: {_show(card)} is not a card (cards are \"A\", \"2\" .. \"10\", \"J\", \"Q\", \"K\")")
    return list(cards)


def _read_position(value: Any, where: str) -> Position:
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < TRACK_CELLS:
            return value
        raise _fail(f"{where}: cell {_show(value)} is off the track (cells are 0 to 75)")
    if value == "home":
        return HOME
    if isinstance(value, str) and value.startswith("safe "):
        place = value[5:]
        if place in SAFE_PLACE_NAMES:
            return SAFE_OFFSET + int(place)
    raise _fail(f"{where}: {_show(value)} is not a position (\"home\", a cell 0..75, or \"safe 1\"..\"safe 4\")")


def _read_marbles(marbles: Any, colours: tuple[Colour, ...]) -> list[Position]:
    if not isinstance(marbles, dict):
        raise _fail("'marbles' must be an object from colour to a list of 4 positions")
    for colour in marbles:
        if colour not in colours:
            raise _fail(f"'marbles' has colour {_key(colour)}, which has no seat at this table")
    positions = all_home()
    for colour in colours:
        if colour not in marbles:
            raise _fail(f"'marbles' is missing colour '{colour}'")
        entry = marbles[colour]
        if not isinstance(entry, list) or len(entry) != 4:
            raise _fail(f"'marbles' {colour}: must list exactly 4 positions, marble 1 first")
        for number, value in enumerate(entry, start=1):
            positions[marble_id(colour, number)] = _read_position(value, f"'marbles' {colour} {number}")
    return positions


def _read_colour(data: dict[str, Any], key: str, colours: tuple[Colour, ...]) -> Colour:
    value = data[key]
    if not isinstance(value, str) or value not in colours:
        raise _fail(f"'{key}' must be one of {', '.join(colours)}, not {_show(value)}")
    return value


def _read_winner(data: dict[str, Any], rules: Rules) -> tuple[Colour, ...]:
    value = data["winner"]
    allowed = sorted("+".join(rules.team_of(colour)) for colour in rules.seats)
    if not isinstance(value, str) or value not in allowed:
        raise _fail(f"'winner' must be one of {', '.join(allowed)}, not {_show(value)}")
    return tuple(value.split("+"))


def _read_last_card(value: Any, rules: Rules) -> LastCard:
    if not isinstance(value, dict) or set(value) != {"colour", "card", "phrase"}:
        raise _fail("'last_card' must be an object with exactly 'colour', 'card' and 'phrase'")
    if value["colour"] not in rules.seats:
        raise _fail(f"'last_card' colour {_show(value['colour'])} has no seat at this table")
    if value["card"] not in RANKS or not isinstance(value["card"], str):
        raise _fail(f"'last_card' card {_show(value['card'])} is not a card")
    move = _read_phrase(value["phrase"], rules, "'last_card' phrase")
    return LastCard(str(value["colour"]), str(value["card"]), move)


def _read_history(value: Any, rules: Rules) -> list[tuple[Colour, Move]]:
    if not isinstance(value, list):
        raise _fail("'history' must be a list of {\"colour\", \"phrase\"} objects")
    history = []
    for index, entry in enumerate(value, start=1):
        where = f"'history' entry {index}"
        if not isinstance(entry, dict) or set(entry) != {"colour", "phrase"}:
            raise _fail(f"{where} must be an object with exactly 'colour' and 'phrase'")
        if entry["colour"] not in rules.seats or not isinstance(entry["colour"], str):
            raise _fail(f"{where} has colour {_show(entry['colour'])}, which has no seat at this table")
        history.append((entry["colour"], _read_phrase(entry["phrase"], rules, where)))
    return history


def _read_phrase(value: Any, rules: Rules, where: str) -> Move:
    if not isinstance(value, str):
        raise _fail(f"{where}: the phrase must be a string")
    try:
        return parse_move(value, rules)
    except PhraseSyntaxError as error:
        raise _fail(f"{where}: {_show(value)} is not a move phrase ({error})") from None

