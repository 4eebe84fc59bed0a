"""Storage without a network: what a restarted server reads back is exactly the table it had, move for move."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from voicejack.bots import make_bot
from voicejack.engine import apply_move, legal_moves, make_rules, new_game
from voicejack.server.storage import CodeTaken, SeatRow, SqliteStorage, Storage, TableLost, open_storage
from voicejack.server.table import SNAPSHOT_EVERY, restore_state, table_text
from voicejack.tablefile import table_to_dict


def _play(storage: SqliteStorage, code: str, moves: int) -> dict[str, object]:
    """Create a table and store ``moves`` moves the way the server does; the table file at the end."""
    async def run() -> dict[str, object]:
        state, _ = new_game(make_rules(4, True, "complex"), seed=8)
        await storage.open()
        await storage.create_table(code, "complex, teams", "bot,bot,bot,bot", table_text(state),
                                   [SeatRow(c, c, None, "robot") for c in state.rules.seats], 0.0)
        for number in range(1, moves + 1):
            colour = state.turn
            move = make_bot("bot", seed=number).choose(state, legal_moves(state))
            apply_move(state, move)
            snapshot = number % SNAPSHOT_EVERY == 0
            await storage.record_move(code, number, colour, move.phrase, table_text(state) if snapshot else None,
                                      None, float(number))
        await storage.close()
        return table_to_dict(state)
    return asyncio.run(run())


@pytest.mark.parametrize("moves", [SNAPSHOT_EVERY * 2, SNAPSHOT_EVERY * 2 + 7, 3])
def test_a_table_read_back_after_a_restart_is_the_table_that_was_stored(tmp_path: Path, moves: int) -> None:
    path = str(tmp_path / "t.sqlite")
    expected = _play(SqliteStorage(path, "first", 10.0), "amber tiger seven", moves)

    async def read() -> dict[str, object]:
        storage = SqliteStorage(path, "second", 10.0)
        await storage.open()
        row = await storage.claim("amber tiger seven", 1000.0)
        await storage.close()
        assert row is not None and row.moves == moves
        assert row.state_moves == moves - moves % SNAPSHOT_EVERY and len(row.later) == moves % SNAPSHOT_EVERY
        return table_to_dict(restore_state(row))
    assert asyncio.run(read()) == expected  # including the generator: the same deals to come


def test_a_second_server_cannot_open_the_same_sqlite_file_and_a_stale_write_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "t.sqlite")

    async def run() -> None:
        first = open_storage(path, "first", 10.0)
        await first.open()
        with pytest.raises(OSError, match="another server is using"):
            await open_storage(path, "second", 10.0).open()
        state, _ = new_game(make_rules(2, False), seed=1)
        await first.create_table("calm otter one", "regular", "human,human", table_text(state), [], 0.0)
        with pytest.raises(CodeTaken):
            await first.create_table("calm otter one", "regular", "human,human", table_text(state), [], 0.0)
        move = legal_moves(state)[0]
        await first.record_move("calm otter one", 1, state.turn, move.phrase, None, None, 1.0)
        with pytest.raises(TableLost):  # move 1 again (a fork) changes nothing
            await first.record_move("calm otter one", 1, state.turn, move.phrase, None, None, 2.0)
        row = await first.load("calm otter one")
        assert row is not None and row.moves == 1 and row.later == [move.phrase]
        await first.close()
    asyncio.run(run())


def test_on_postgresql_a_table_has_one_owner_and_a_lapsed_owner_cannot_fork_it(fresh_postgres: str) -> None:
    from voicejack.server.storage import PostgresStorage, TableElsewhere

    async def run() -> None:
        first, second = PostgresStorage(fresh_postgres, "first", 0.3), PostgresStorage(fresh_postgres, "second", 0.3)
        await first.open()
        await second.open()
        state, _ = new_game(make_rules(2, False), seed=2)
        await first.create_table("brave lion two", "regular", "human,bot", table_text(state), [], 100.0)
        with pytest.raises(CodeTaken):
            await second.create_table("brave lion two", "regular", "human,bot", table_text(state), [], 100.0)
        with pytest.raises(TableElsewhere):  # the first server's lease runs until 100.3
            await second.claim("brave lion two", 100.1)
        move = legal_moves(state)[0]
        await first.record_move("brave lion two", 1, state.turn, move.phrase, None, None, 100.2)
        with pytest.raises(TableLost):
            await second.record_move("brave lion two", 2, state.turn, move.phrase, None, None, 100.2)
        row = await second.claim("brave lion two", 101.0)  # the lease has lapsed: the second server takes over
        assert row is not None and row.moves == 1 and row.later == [move.phrase]
        with pytest.raises(TableLost):  # the first one's late write changes nothing
            await first.record_move("brave lion two", 2, state.turn, move.phrase, None, None, 101.1)
        stored = await second.load("brave lion two")
        assert stored is not None and stored.moves == 1
        await first.close()
        await second.close()
    asyncio.run(run())


async def _take_back_the_last_move(first: Storage, second: Storage | None, code: str) -> None:
    """Two moves stored; the second taken back: its row goes, the table file before it is the snapshot,
    and neither another server (``second``, where several share the database) nor a stale number can
    take a move back."""
    state, _ = new_game(make_rules(2, False), seed=12)
    await first.create_table(code, "regular", "human,bot", table_text(state), [], 100.0)
    played = []
    for number in (1, 2):
        if number == 2:
            before = table_text(state)
        move = legal_moves(state)[0]
        played.append(move.phrase)
        colour = state.turn
        apply_move(state, move)
        await first.record_move(code, number, colour, move.phrase, None, None, 100.0 + number)
    with pytest.raises(TableLost):  # not the last move
        await first.undo_move(code, 1, before, 103.0)
    if second is not None:
        with pytest.raises(TableLost):  # not this server's table
            await second.undo_move(code, 2, before, 103.0)
    await first.undo_move(code, 2, before, 103.0)
    row = await first.load(code)
    assert row is not None and row.moves == 1 and row.state_moves == 1 and row.later == [] and row.state == before
    assert [phrase for _, _, phrase in await first.moves(code)] == played[:1]
    with pytest.raises(TableLost):  # once only: move 2 is gone
        await first.undo_move(code, 2, before, 104.0)
    replayed = restore_state(row)
    await first.record_move(code, 2, replayed.turn, played[1], None, None, 105.0)  # played again, as number 2
    again = await first.load(code)
    assert again is not None and again.later == played[1:]


def test_a_move_taken_back_is_gone_from_sqlite(tmp_path: Path) -> None:
    async def run() -> None:
        first = SqliteStorage(str(tmp_path / "t.sqlite"), "first", 10.0)
        await first.open()
        await _take_back_the_last_move(first, None, "quiet heron six")  # the file is locked to one server
        await first.close()
    asyncio.run(run())


def test_a_move_taken_back_is_gone_from_postgresql(fresh_postgres: str) -> None:
    from voicejack.server.storage import PostgresStorage

    async def run() -> None:
        first, second = PostgresStorage(fresh_postgres, "first", 30.0), PostgresStorage(fresh_postgres, "second", 30.0)
        await first.open()
        await second.open()
        await _take_back_the_last_move(first, second, "quiet heron six")
        await first.close()
        await second.close()
    asyncio.run(run())
