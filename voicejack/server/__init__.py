"""The table server (issue 14): the only authority over shared tables, on asyncio and websockets.

``protocol`` is the message format both sides share; ``storage`` keeps tables
and moves in SQLite or PostgreSQL; ``table`` is one table's seats, bots and
drops; ``server`` accepts connections. See docs/protocol.md.
"""
