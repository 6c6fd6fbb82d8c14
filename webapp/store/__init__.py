"""The event store: tables, seats and the append-only event log, split by job.

* ``cache``: the replayed games (one per table, per process) and ``game_at``;
* ``latest``: each table's newest entries known here (made here or heard of) and the row the newest made here left;
* ``reads``: looking up tables, seats, the log, a table's history;
* ``checks``: the checks of input (names, versions, keys, sizes);
* ``writing``: the one way to change a table (lock, refuse and roll back, commit), and to delete one;
* ``lobby``: creating, importing and joining tables, the seats, the start, the rematch;
* ``events``: the append protocol of entries and undos.

The state is always the engine's replay of the events in force; the cache can
be thrown away at any time. Callers use the names below.
"""
from .cache import Loaded, clear_cache, game_at
from .checks import EVENTS_MAX, KEY_MAX, NAME_MAX, clean_name
from .events import submit, submit_known, undo
from .latest import entered, entered_revision, entered_table, heard
from .lobby import create_table, import_table, join, move_seat, new_seat_token, rematch, remove_seat, start
from .reads import (
    REVISION_OF_TABLE, KnownSeat, bot_names, get_table, history, human_seat_range, is_table_id, known_seat, LOG_LENGTH,
    log_rows, next_game, record, seat_by_token, seat_of_token, state_answer, table_by_code,
)
from .writing import committed, delete_tables

__all__ = [
    "EVENTS_MAX", "KEY_MAX", "NAME_MAX", "REVISION_OF_TABLE", "KnownSeat", "Loaded", "bot_names", "clean_name",
    "clear_cache", "committed",
    "create_table", "delete_tables", "entered", "entered_revision", "entered_table", "game_at", "get_table", "history", "human_seat_range",
    "heard", "import_table", "is_table_id", "join", "known_seat",
    "LOG_LENGTH", "log_rows", "move_seat", "new_seat_token", "next_game", "record", "rematch", "remove_seat", "seat_by_token",
    "seat_of_token", "start", "state_answer", "submit", "submit_known", "table_by_code", "undo",
]
