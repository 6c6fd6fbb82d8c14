"""What the fuzz tests share: a wire to the live server that sends any bytes, the
engine as oracle, the database compared before and after, and the strategies.

Every input goes through real HTTP to the live server of the suite (a threaded
werkzeug server on SQLite under ``./kt test``; gunicorn on PostgreSQL under
``./kt test-postgres``). A refusal is a 4xx whose body names what was wrong
(JSON ``error`` under ``/api/``, the page's or the controls region's
``error`` sentence elsewhere); a 5xx, a traceback or a silent 4xx fails the test. An input that
reaches the engine (an event, options, a record) is first given to the engine
here: when the engine crashes on it (anything but an ``EngineError``) the test
fails with the input — a crash is never a correct refusal, even when the web
layer turns it into a 4xx.
"""
from __future__ import annotations

import http.client
import json
import math
import os
import re
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import quote, urlsplit

import sqlalchemy as sa
from hypothesis import HealthCheck, Phase, settings, strategies as st

from engine import EngineError, new_game
from engine.randomplay import random_record
from engine.shape import json_int
from webapp.client_json import DEPTH_MAX

SCALE = float(os.environ.get("KT_FUZZ_SCALE", "1"))  # < 1 while developing, e.g. 0.05
ALERT = re.compile(r'(?:role="alert"|class="error")[^>]*>\s*([^<\s][^<]*)<')  # the page's or region's refusal
TAG = re.compile(r"<[^>]*>")
NOT_UNDERSTOOD = "not-understood"  # the web layer's answer to an engine crash
COOKIE_MAX = 4093  # bytes of a Set-Cookie header browsers keep (werkzeug warns above it)
APP_HEADER = "content-security-policy"  # on every answer of the app, not on the HTTP server's own


def examples(count: int) -> int:
    return max(1, round(count * SCALE))


def fuzz_settings(count: int):
    return settings(max_examples=examples(count), deadline=None, database=None,
                    phases=[Phase.explicit, Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))


# --- the wire ------------------------------------------------------------------
@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    @property
    def json(self):
        return json.loads(self.body) if self.headers.get("content-type", "").startswith("application/json") else None

    @property
    def from_app(self) -> bool:
        """Answered by the app (not by the HTTP server refusing the request before it)."""
        return APP_HEADER in self.headers

    def reason(self) -> str | None:
        """The sentence that says what was wrong, if there is one."""
        data = self.json
        if isinstance(data, dict):
            return data.get("error") if isinstance(data.get("error"), str) and data["error"].strip() else None
        if not self.from_app:  # the HTTP server's own page (a request too large for it): its words
            return " ".join(TAG.sub(" ", self.text).split()) or None
        found = ALERT.search(self.text)
        return found.group(1).strip() if found else None

    def code(self) -> str | None:
        data = self.json
        return data.get("code") if isinstance(data, dict) else None

    def __repr__(self) -> str:
        return f"<{self.status} {self.text[:300]!r}>"


class Wire:
    """One keep-alive HTTP/1.1 connection with a cookie jar of its own that sends
    whatever it is given: any method, target, header bytes and body."""

    def __init__(self, base_url: str, timeout: float = 30.0):
        parts = urlsplit(base_url)
        assert parts.hostname == "127.0.0.1", f"the fuzz tests talk to loopback only, not {base_url}"
        self.host, self.port, self.timeout = parts.hostname, parts.port, timeout
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def send(self, method: str, target: str, headers=(), body: bytes | str = b"", jar: bool = True) -> Answer:
        """``headers``: (name, value) pairs, str or bytes; the jar's cookies are
        added unless ``jar`` is false or a Cookie header is given."""
        body = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
        headers = list(headers)
        names = {(name.decode("latin-1") if isinstance(name, bytes) else name).lower() for name, _ in headers}
        if jar and self.cookies and "cookie" not in names:
            headers.append(("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items())))
        if "content-length" not in names and (body or method in ("POST", "PUT", "PATCH")):
            headers.append(("Content-Length", str(len(body))))
        while True:
            reused = self.connection is not None
            if not reused:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.connection.putrequest(method, target, skip_accept_encoding=True)
                for name, value in headers:
                    self.connection.putheader(name, value)
                try:
                    self.connection.endheaders(body or None)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the server stopped reading (a request too large for it): its answer may be there
                response = self.connection.getresponse()
                raw = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if not reused:
                    raise
                # else the server had closed the idle keep-alive connection: once more on a new one
        if response.will_close:
            self.close()
        for line in response.msg.get_all("Set-Cookie") or []:
            assert len(line) <= COOKIE_MAX, f"a cookie of {len(line)} bytes, which browsers drop: {line[:80]}…"
        if jar:
            for line in response.msg.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(line).items():
                    self.cookies[name] = morsel.value
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, raw)

    def get(self, path: str, headers=()) -> Answer:
        return self.send("GET", path, headers)

    def post_json(self, path: str, data, token: str | None = None, headers=()) -> Answer:
        """``data`` is sent as it is when it is already text or bytes, else as JSON."""
        body = data if isinstance(data, (str, bytes)) else json.dumps(data)
        sent = [("Content-Type", "application/json"), *headers]
        if token:
            sent.append(("Authorization", f"Bearer {token}"))
        return self.send("POST", path, sent, body)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def as_received(text: str) -> str:
    """A form field as the server reads it: bytes that are no UTF-8 (a lone surrogate
    sent by a broken client) become U+FFFD, as werkzeug decodes them."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def form_body(fields) -> str:
    """``application/x-www-form-urlencoded`` of (name, value) pairs (any text)."""
    return "&".join(f"{_quoted(name)}={_quoted(value)}" for name, value in fields)


def _quoted(text: str) -> str:
    """Percent-encoded UTF-8; a lone surrogate becomes bytes that are no UTF-8 (as a broken client sends them)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


CSRF_IN_PAGE = re.compile(r'"X-CSRFToken":\s*"([^"]+)"')


class Browser(Wire):
    """A wire that is a phone's browser: the session cookie and the CSRF token of its pages."""

    csrf = ""

    def open(self, path: str) -> Answer:
        answer = self.get(path)
        while answer.status in (301, 302, 303) and "location" in answer.headers:
            answer = self.get(urlsplit(answer.headers["location"])._replace(scheme="", netloc="").geturl())
        found = CSRF_IN_PAGE.search(answer.text)
        if found:
            self.csrf = found.group(1)
        return answer

    def post_form(self, path: str, fields, htmx: bool = False, csrf: bool = True) -> Answer:
        headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if csrf:
            headers.append(("X-CSRFToken", self.csrf))
        if htmx:
            headers.append(("HX-Request", "true"))
        return self.send("POST", path, headers, form_body(fields))


# --- the tables under fuzz, and the database before and after -----------------------
GAMES = {  # a table of each kind: (game, options, players)
    "gleich-und-gleich": ("gleich-und-gleich", {}, ["Anna", "Ben", "Carla"]),
    "cubirds": ("cubirds", {}, ["Anna", "Ben"]),
    "solo": ("cubirds", {"solo": True}, ["Anna", "RobinBird"]),
    "gemeinsame-sache": ("gemeinsame-sache", {}, ["Anna", "Ben"]),
}


@dataclass
class Subject:
    """A started table imported through the API with the first ``at`` events of a
    random legal game; ``token`` holds seat 0; ``game`` is the engine's game at the
    same point (the oracle)."""

    id: str
    join_code: str
    token: str
    seat_url: str
    game: object
    upcoming: list[dict]
    record: dict

    def legal(self, event) -> bool:
        """Whether the engine takes ``event`` here; a crash of the engine fails the test."""
        return engine_verdict(lambda: self.game.apply(event), undo=self.game.undo) is None


def engine_verdict(attempt, undo=None) -> EngineError | None:
    """Run ``attempt`` (an engine call on fuzzed input): None when the engine took it
    (then ``undo`` takes it back), its refusal when it refused. Anything else the
    engine raises is a crash and fails the test, naming the input."""
    try:
        attempt()
    except EngineError as err:
        return err
    except Exception as crash:
        raise AssertionError(f"the engine crashed ({crash.__class__.__name__}: {crash}) on a fuzzed input "
                             "instead of refusing it with an EngineError") from crash
    if undo is not None:
        undo()
    return None


def import_subject(wire: Wire, kind: str, at: int, seed: int = 11) -> Subject:
    game_name, options, players = GAMES[kind]
    record = random_record(game_name, options, len(players), seed)
    record["players"] = players
    head = dict(record, events=record["events"][:at])
    made = wire.post_json("/api/tables", {"record": head})
    assert made.status == 201, made
    game = new_game(game_name, record["options"], players)
    for event in head["events"]:
        game.apply(event)
    data = made.json
    return Subject(data["id"], data["join_code"], data["token"], data["seat_url"], game,
                   record["events"][at:at + 8], record)


def lobby_subject(wire: Wire, kind: str = "gleich-und-gleich", names=("Anna",)) -> Subject:
    """A table in the lobby, created (and joined) through the API."""
    game_name, options, _players = GAMES[kind]
    made = wire.post_json("/api/tables", {"game": game_name, "options": options, "name": names[0]})
    assert made.status == 201, made
    data = made.json
    for name in names[1:]:
        joined = wire.post_json(f"/api/tables/{data['id']}/seats", {"join_code": data["join_code"], "name": name})
        assert joined.status == 201, joined
    return Subject(data["id"], data["join_code"], data["token"], data["seat_url"], None, [], {})


COUNTS = "SELECT (SELECT count(*) FROM tables), (SELECT count(*) FROM seats), (SELECT count(*) FROM events)"
WATCHED_ROWS = [
    "SELECT id, version, revision, status, join_code, players, options FROM tables WHERE id IN ({}) ORDER BY id",
    "SELECT table_id, id, position, name, token_hash FROM seats WHERE table_id IN ({}) ORDER BY table_id, id",
    "SELECT table_id, seq, kind, key, seat_id FROM events WHERE table_id IN ({}) ORDER BY table_id, seq",
]


class Ledger:
    """The database as the fuzzed requests must leave it: every row of the watched
    tables (table, seats, events) and the number of rows of each kind overall.
    ``refused(answer)`` asserts a refusal with a reason and nothing changed;
    ``accepted()`` takes the database as it now is (after a valid input).
    It reads on a DB-API connection of its own, outside any transaction (one
    snapshot per input: through SQLAlchemy it would cost more than the request)."""

    def __init__(self, database_url: str, tables: list[str]):
        self.engine = sa.create_engine(database_url, poolclass=sa.pool.NullPool)
        self.connection = self.engine.raw_connection()
        if self.engine.dialect.name == "sqlite":
            self.connection.driver_connection.isolation_level = None
            self.placeholder = "?"
        else:
            self.connection.driver_connection.autocommit = True
            self.placeholder = "%s"
        self.watched = list(tables)
        self.sent = 0
        self.before = self.snapshot()

    def watch(self, table_id: str) -> None:
        self.watched.append(table_id)
        self.before = self.snapshot()

    def snapshot(self) -> tuple:
        cursor = self.connection.cursor()
        try:
            found = [tuple(cursor.execute(COUNTS).fetchone())]
            marks = ", ".join([self.placeholder] * len(self.watched)) or "NULL"
            for query in WATCHED_ROWS:
                found.append(tuple(map(tuple, cursor.execute(query.format(marks), self.watched).fetchall())))
            return tuple(found)
        finally:
            cursor.close()

    def close(self) -> None:
        self.connection.close()
        self.engine.dispose()

    def refused(self, answer: Answer, code: str | None = None) -> str:
        """A 4xx with a reason (the engine's ``code`` when given), nothing changed."""
        self.sent += 1
        assert 400 <= answer.status < 500, answer
        assert answer.code() != NOT_UNDERSTOOD, f"the engine crashed on this input (the server says so): {answer}"
        reason = answer.reason()
        assert reason, f"a refusal without a reason: {answer}"
        assert "Traceback" not in answer.text, answer
        if code is not None and answer.json is not None:
            assert answer.code() == code, f"the engine refuses with {code!r}, the server said {answer}"
        self._unchanged(f"a refused input changed the database: {answer}")
        return reason

    def _unchanged(self, message: str) -> None:
        after = self.snapshot()
        if after != self.before:
            self.before = after  # (so that the next inputs are judged on their own)
            raise AssertionError(message)

    def answered(self, answer: Answer) -> None:
        """Not a request for a change (a page, a poll): any answer but a 5xx, a
        4xx with its reason, and nothing changed."""
        if answer.status >= 400:
            self.refused(answer)
            return
        self.sent += 1
        assert "Traceback" not in answer.text, answer
        self._unchanged(f"a reading request changed the database: {answer}")

    def done(self, count: int, record_property) -> None:
        """At least ``count`` inputs (as scaled) were sent and checked; their number goes to the summary."""
        assert self.sent >= examples(count), f"only {self.sent} of {examples(count)} inputs were sent"
        record_property("fuzz_inputs", self.sent)

    def accepted(self) -> None:
        self.sent += 1
        self.before = self.snapshot()



# --- strategies ------------------------------------------------------------------
DEEP = "\x00deep\x00"  # stands for deep nesting in the JSON text (see ``json_text``)
HUGE = "\x00huge\x00"  # stands for a number text Python never writes (see ``json_text``)
huge_numbers = st.sampled_from([
    "1" + "0" * 400, "-" + "9" * 5000, "1e400", "-1e400", "1.7976931348623157e308", "4.9e-324",
    str(2 ** 63), str(2 ** 64), str(-2 ** 63 - 1), "NaN", "Infinity", "-Infinity", "1E+2", "-0", "0.0000001"])
deep_json = st.builds(lambda depth, kind: ("[" * depth + "]" * depth) if kind == "list" else
                      ('{"a":' * depth + "1" + "}" * depth) if kind == "dict" else
                      ("[" * depth),  # unclosed
                      st.sampled_from([DEPTH_MAX - 2, DEPTH_MAX, DEPTH_MAX + 1, 200, 990, 1001, 5000, 100_000]),
                      st.sampled_from(["list", "dict", "open"]))
TEXTS = ["", " ", "\x00", "\ud800", "a\udfffb", "\u202e", "\ufeff", "\u200b", "\n", "\t", "<script>x</script>",
         "🃏" * 41, "x" * 41, "x" * 5000, "%00", "../..", "null", "true", "0", "-1", "1e9", "{}", "[]", "Ä",
         "left", "right", "pile", "discard", "leicht", "custom", "play", "draw", "flock", "no-flock", "setup", "undo"]
NUMBERS = [0, 1, -1, 2, 3, 5, 8, 12, 33, 34, 2 ** 31, 2 ** 63, -2 ** 64, 10 ** 30, 0.5, -0.0, 1e308, 5e-324,
           float("nan"), float("inf"), True, False, None]


def _cards() -> list[str]:
    """The cards of every game as they appear in records (so that mutations get past the type checks)."""
    found = {"9-10", "A", "K", "Q", "J", "2", "10", "JOKER", "AS", "10H", "KC"}
    for game, options, players in GAMES.values():
        for event in random_record(game, options, len(players), 1)["events"][:30]:
            for value in event.values():
                cards = [c for row in value for c in row] if isinstance(value, list) and value and \
                    isinstance(value[0], list) else value if isinstance(value, list) else [value]
                found.update(card for card in cards if isinstance(card, str))
    return sorted(found)


CARDS = _cards()
POOL = TEXTS + NUMBERS + CARDS + [  # values a fuzzed field takes (cheap to draw: one choice)
    DEEP, HUGE, [], {}, [[]], [None], [DEEP], {"": DEEP}, [HUGE, HUGE], {"type": "play"}, {"type": DEEP},
    CARDS[:3], CARDS[-2:], [CARDS[0]] * 40, [CARDS[1], [CARDS[2]]], list(range(1000)), {"a": {"b": {"c": []}}},
    [{"type": "draw"}], [0, 1], [-1], [True], ["right", "left"], {"x": float("nan")}]
odd_text = st.sampled_from(TEXTS) | st.text(max_size=12)
json_scalars = st.sampled_from(TEXTS + NUMBERS + CARDS) | st.integers() | st.text(max_size=8)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(odd_text, inner, max_size=3), max_leaves=5)
# what a fuzzed field is set to: mostly one of POOL, else a small random value
wild_values = st.sampled_from(POOL) | st.sampled_from(POOL) | json_values


def json_text(value, draw) -> str:
    """``value`` as JSON text, each ``DEEP`` replaced by deep nesting and each
    ``HUGE`` by a number text Python would never write."""
    text = json.dumps(value, ensure_ascii=draw(st.booleans()))
    while json.dumps(DEEP) in text:
        text = text.replace(json.dumps(DEEP), draw(deep_json), 1)
    while json.dumps(HUGE) in text:
        text = text.replace(json.dumps(HUGE), draw(huge_numbers), 1)
    return text


names = st.sampled_from(["Anna", " Ben ", "Carla  Dora", "x" * 40, "\u00e9" * 40]) | odd_text
NAME_MAX = 40


def name_ok(name) -> bool:
    """A player's name as the API takes it: 1 to 40 printable characters around
    the whitespace inside it (collapsed to one space)."""
    return (isinstance(name, str) and 1 <= len(name.strip()) <= NAME_MAX
            and "".join(name.split()).isprintable())


def mutate(value, draw, depth: int = 0):
    """One mutation somewhere in a JSON value (an event, options, a record): a value
    replaced, a key dropped or added, an item of a list replaced, dropped or added."""
    if isinstance(value, dict) and value and (depth > 3 or draw(st.integers(0, 2))):
        value = dict(value)
        key = draw(st.sampled_from(sorted(value)))
        how = draw(st.sampled_from(["replace", "drop", "add", "deeper"]))
        if how == "replace":
            value[key] = draw(wild_values)
        elif how == "drop":
            del value[key]
        elif how == "add":
            value[draw(odd_text)] = draw(wild_values)
        else:
            value[key] = mutate(value[key], draw, depth + 1)
        return value
    if isinstance(value, list) and value and draw(st.booleans()):
        value = list(value)
        index = draw(st.integers(0, len(value) - 1))
        how = draw(st.sampled_from(["replace", "drop", "add", "deeper"]))
        if how == "replace":
            value[index] = draw(wild_values)
        elif how == "drop":
            del value[index]
        elif how == "add":
            value.insert(index, draw(wild_values))
        else:
            value[index] = mutate(value[index], draw, depth + 1)
        return value
    return draw(wild_values)


NO_JSON = object()  # what ``strict_json`` makes of a text the server must refuse as JSON


def strict_json(raw: str | bytes):
    """The value of ``raw`` if it is JSON as the server takes it (RFC 8259 in UTF-8,
    finite numbers, whole Unicode characters, at most ``DEPTH_MAX`` levels deep; an
    integer too long for Python as one beyond the engine's bounds), else ``NO_JSON``."""
    def no_constant(name):
        raise ValueError(name)

    def finite(text):
        if not math.isfinite(float(text)):
            raise ValueError(text)
        return float(text)

    try:
        value = json.loads(raw, parse_constant=no_constant, parse_float=finite, parse_int=json_int)
        return value if _depth(value) <= DEPTH_MAX and _whole_text(value) else NO_JSON
    except (ValueError, RecursionError):
        return NO_JSON


def _depth(value) -> int:
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _whole_text(value) -> bool:
    if isinstance(value, dict):
        return all(_whole_text(key) and _whole_text(item) for key, item in value.items())
    if isinstance(value, list):
        return all(map(_whole_text, value))
    return not isinstance(value, str) or not any("\ud800" <= char <= "\udfff" for char in value)


def option_names(*games: str) -> list[str]:
    """The options each game knows (its normalised options name them all), and C4's handicap."""
    names = {"robin_handicap"}
    for kind, (game, options, players) in GAMES.items():
        if not games or game in games:
            names.update(random_record(game, options, len(players), 1)["options"])
    return sorted(names)
