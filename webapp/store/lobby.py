"""Tables before and between games: creating, importing and joining them, the
seats and their order, the start, and the rematch."""
from __future__ import annotations

from engine import EngineError, IllegalEvent, game_class, new_game, parse_record

from .. import nights_store
from ..errors import NOT_FOUND, Refusal
from ..extensions import db
from ..i18n import lazy_gettext as _l
from ..models import LOBBY, PLAYING, Event, Seat, Table, token_hash
from . import cache, checks
from .events import stale
from .reads import bot_names, get_table, human_seat_range, next_game
from .writing import changing, committed, new_seat, new_table, new_token


def create_table(game, options, creator_name) -> tuple[Table, Seat, str]:
    """A new table in the lobby; the creator holds seat 0."""
    if not isinstance(game, str):
        raise Refusal(422, "bad-game", _l("\"game\" muss der Name eines Spiels sein"))
    options, name = checks.options(options), checks.clean_name(creator_name)
    options = _validated(game, options)
    with committed():
        table = new_table(game, options, None, LOBBY)
        seat, token = new_seat(table, 0, name)
    return table, seat, token


def import_table(data, creator_name=None, previous_id: str | None = None) -> tuple[Table, Seat, str]:
    """A record becomes a new table, already playing; the caller holds seat 0.
    Every event is checked by the engine; one illegal event refuses the import.
    ``previous_id``: the game before it at the table (a night file's chain)."""
    try:
        data = parse_record(data)
        checks.event_count(len(data["events"]))
        game = new_game(data["game"], data.get("options", {}), data["players"])  # ("players": a list of texts)
        for name in game.players:
            checks.stored_name(name)  # stored as it is: 1 to NAME_MAX characters, as when joining
        effects = []
        for index, event in enumerate(data["events"]):
            try:
                effects.append(game.apply(event))
            except IllegalEvent as err:
                raise err.at(index) from None
    except EngineError as err:
        raise Refusal.from_engine(err) from None
    with committed():
        table = new_table(game.name, game.options, list(game.players), PLAYING)
        table.version, table.previous_id = len(game.events), previous_id
        seats = [new_seat(table, position, name) for position, name in enumerate(game.players)
                 if position not in game.bot_seats]   # the people's seats; the engine plays the bots
        if creator_name:
            seats[0][0].name = checks.clean_name(creator_name)
        for seq, (event, effect) in enumerate(zip(game.events, effects), start=1):
            db.session.add(Event(table_id=table.id, seq=seq, kind="event", event=event, effect=effect))
        nights_store.entry_appended(table.id, game, "event")  # C6: a finished game's summary
    cache.put(table.id, cache.Loaded(table.version, game, list(range(1, table.version + 1))))
    seat, token = seats[0]
    return table, seat, token


def join(table_id: str, join_code, name) -> tuple[Seat, str]:
    """A new seat at the end of the order, before the game starts."""
    name = checks.clean_name(name)
    with changing(table_id) as table:
        if not isinstance(join_code, str) or join_code.strip().upper() != table.join_code:
            raise Refusal(404, "no-such-table", NOT_FOUND)
        _refuse_unless_lobby(table)
        _lo, hi = human_seat_range(table.game, table.options)
        if len(table.seats) >= hi:
            raise Refusal(409, "table-full", _l("Der Tisch ist voll: höchstens {max} Plätze"), {"max": hi})
        return new_seat(table, len(table.seats), name)


def move_seat(table_id: str, position, offset) -> None:
    """Swap a seat with its neighbour (offset -1 or +1) in the lobby."""
    with changing(table_id) as table:
        _refuse_unless_lobby(table)
        seat = _seat_at(table, position)
        if offset not in (-1, 1):
            raise Refusal(422, "bad-move", _l("Ein Platz rückt nur um eins nach vorn oder hinten"))
        if not 0 <= position + offset < len(table.seats):
            raise Refusal(422, "cannot-move", _l("Platz {seat} kann nicht weiter rücken"), {"seat": position})
        other = _seat_at(table, position + offset)
        seat.position, other.position = other.position, seat.position


def remove_seat(table_id: str, position) -> None:
    """Remove a seat in the lobby; the others close up. The last seat stays."""
    with changing(table_id) as table:
        _refuse_unless_lobby(table)
        seat = _seat_at(table, position)
        if len(table.seats) == 1:
            raise Refusal(409, "last-seat", _l("Der letzte Platz kann nicht entfernt werden"))
        table.seats.remove(seat)
        for other in table.seats:
            if other.position > position:
                other.position -= 1


def new_seat_token(table_id: str, position) -> tuple[Seat, str]:
    """A new link for a seat (e.g. for a lost phone); the old link stops working."""
    with changing(table_id) as table:
        seat = _seat_at(table, position)
        token = new_token()
        seat.token_hash = token_hash(token)
        return seat, token


def start(table_id: str) -> Table:
    """Fix the players (names in seat order, bots last) into the game header."""
    with changing(table_id) as table:
        _refuse_unless_lobby(table)
        players = [seat.name for seat in table.seats] + bot_names(table.game, table.options)
        game = _new_game(table.game, table.options, players, status=409)
        table.players = players
        table.status = PLAYING
    cache.put(table_id, cache.Loaded(0, game))
    return table


class _Moved(Exception):
    """The game changed (an undo) between looking at it and locking the table."""


def rematch(table_id: str, seat: Seat | None, options=None) -> tuple[Table, str]:
    """The next game at a finished table: same game, players and seat order, the
    old options unless ``options`` are given. The first seat to ask creates it,
    the others find it; each gets a new token for its seat there."""
    if seat is None or seat.table_id != table_id:
        raise Refusal(403, "not-seated", _l("Nur wer am Tisch sitzt, kann eintragen"))
    with cache.game_at(get_table(table_id)) as loaded:  # before the write lock (see game_at)
        over, seen = loaded.game.awaiting is None, loaded.version
    if not over:
        raise Refusal(409, "not-over", _l("Eine Revanche gibt es erst, wenn das Spiel vorbei ist"))
    try:
        with changing(table_id) as table:
            if table.version != seen:
                raise _Moved()
            follow = next_game(table) or _follow_up(table, options)
            mine = _seat_at(follow, seat.position)
            token = new_token()
            mine.token_hash = token_hash(token)
            follow_id = follow.id
    except _Moved:
        raise stale(get_table(table_id)) from None  # built after the rollback: it reads the game
    return get_table(follow_id), token


def _follow_up(table: Table, options) -> Table:
    """The table of the next game, with the same seats (inside the rematch's change)."""
    options = table.options if options is None else checks.options(options)
    game = _new_game(table.game, options, list(table.players))
    follow = new_table(table.game, game.options, list(table.players), PLAYING)
    follow.previous_id = table.id
    for other in table.seats:
        new_seat(follow, other.position, other.name)
    db.session.flush()
    return follow


def _new_game(name: str, options: dict, players: list, status: int = 422):
    try:
        return new_game(name, options, players)
    except EngineError as err:
        raise Refusal.from_engine(err, status=status) from None


def _validated(game: str, options: dict) -> dict:
    try:
        return game_class(game).validate_options(dict(options))
    except EngineError as err:
        raise Refusal.from_engine(err) from None


def _refuse_unless_lobby(table: Table) -> None:
    if table.started:
        raise Refusal(409, "already-started", _l("Das Spiel hat schon begonnen; die Plätze stehen fest"))


def _seat_at(table: Table, position) -> Seat:
    for seat in table.seats:
        if seat.position == position:
            return seat
    raise Refusal(404, "no-such-seat", _l("Platz {seat} gibt es nicht"), {"seat": position})
