"""The night-long soak (a benchmark, not a test): ``python -m bench.soak --minutes 60``
(``make soak``).

The default server (``python -m webapp``: gunicorn, SQLite, one worker with threads) on
127.0.0.1 and a throwaway database; ``--tables`` tables (default 50) of two or three
phones each play complete games and rematches through the pages' own requests: the
lobby's forms (create, join, start), the entry and undo forms as htmx sends them (CSRF
header, idempotency key, version), the rematch button, the held sync poll of every
phone. At the pace of real phones (a tap every few seconds per table), phones
misbehave as phones do: they sleep (no poll) and wake, drop the connection right after
sending an entry (no answer: the phone reloads and taps the same button again, which
sends the same key), reload the page, double-tap (the same request twice at once), and
undo a mistyped entry. The server is restarted gracefully once (SIGHUP: gunicorn
replaces its workers) and killed once (SIGKILL to the whole process group, then started
again), two thirds and five sixths into the run: the first worker lives long enough for
its memory to show where it levels off (its caches fill in the first quarter hour).

Every 30 s it samples each server process (resident memory, threads, open file
descriptors) and the database's size. At the end it checks, for every table, that the
record the server keeps has exactly the events the phones were told were taken (none
lost, none doubled), and that it replays in the engine to the state the phones saw.
A table's phones know only what their answers said: an entry is acknowledged by its
200. The figures go to ``--out`` (JSON) and a summary to stdout; docs/reliability.md
is written from them.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from engine import new_game
from engine.randomplay import random_record

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("gleich-und-gleich", 3), ("gleich-und-gleich", 2), ("cubirds", 2), ("gemeinsame-sache", 2)]
CSRF = re.compile(r'"X-CSRFToken":\s*"([^"]+)"')
SYNC_REV = re.compile(r'id="sync"[^>]*hx-get="[^"]*[?&](?:amp;)?rev=(\d+)')
SAMPLE_SECONDS = 30
TAP_SECONDS = (2.0, 5.0)  # between two taps at one table
NAMES = ["Anna", "Ben", "Carla"]


class Stats:
    """Counts shared by every phone (thread-safe)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = Counter()
        self.statuses = Counter()
        self.server_errors: list[str] = []

    def add(self, name: str, n: int = 1) -> None:
        with self.lock:
            self.counts[name] += n

    def status(self, method: str, path: str, status: int) -> None:
        with self.lock:
            self.statuses[status] += 1
            if status >= 500:
                self.server_errors.append(f"{status} {method} {path}")


class Phone:
    """A phone's browser: one keep-alive connection, its cookies, the CSRF token of
    its last page. A request that gets no answer (server down) raises OSError."""

    def __init__(self, port: int, stats: Stats):
        self.port, self.stats = port, stats
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.connection: http.client.HTTPConnection | None = None

    def _headers(self, extra=()) -> dict:
        headers = dict(extra)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return headers

    def request(self, method: str, path: str, body: str | None = None, headers=(), timeout: float = 30.0):
        reused = self.connection is not None and self.connection.sock is not None
        try:
            answer, text = self._exchange(method, path, body, headers, timeout)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            if not reused:
                raise OSError(f"no answer: {method} {path}") from None
            # the server closed the idle keep-alive connection (gunicorn: after 2 s): a
            # browser sends the request again on a new connection, unasked
            self.close()
            self.stats.add("reconnects after an idle connection was closed")
            answer, text = self._exchange(method, path, body, headers, timeout)
        for header in answer.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        self.stats.status(method, path, answer.status)
        return answer.status, answer.headers, text

    def _exchange(self, method: str, path: str, body: str | None, headers, timeout: float):
        """One request and its answer; OSError (the connection closed) when none came."""
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        self.connection.timeout = timeout
        if self.connection.sock is not None:
            self.connection.sock.settimeout(timeout)
        try:
            self.connection.request(method, path, body=body, headers=self._headers(headers))
            answer = self.connection.getresponse()
            return answer, answer.read().decode("utf-8", "replace")
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.close()
            raise
        except (OSError, http.client.HTTPException) as lost:
            self.close()
            raise OSError(f"no answer: {lost!r}") from lost

    def page(self, path: str) -> tuple[int, str, str]:
        """GET a page, following redirects; (status, final path, HTML). Keeps its CSRF token."""
        for _ in range(5):
            status, headers, text = self.request("GET", path)
            if status in (301, 302, 303) and headers.get("Location"):
                path = urlsplit(headers["Location"]).path
                continue
            if found := CSRF.search(text):
                self.csrf = found.group(1)
            return status, path, text
        raise RuntimeError(f"too many redirects from {path}")

    def form(self, path: str, fields: dict, htmx: bool = True):
        headers = {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.csrf}
        if htmx:
            headers["HX-Request"] = "true"
        return self.request("POST", path, urlencode(fields), headers)

    def drop(self, path: str, fields: dict) -> None:
        """Send a form and go away before the answer (Wi-Fi lost mid-request)."""
        body = urlencode(fields)
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                f"X-CSRFToken: {self.csrf}\r\nHX-Request: true\r\nContent-Length: {len(body)}\r\n"
                f"Cookie: {'; '.join(f'{k}={v}' for k, v in self.cookies.items())}\r\n\r\n")
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=5) as raw:
                raw.sendall((head + body).encode())
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        except OSError:
            pass

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def until_answered(call, stats: Stats, stop: threading.Event, what: str):
    """Call until the server answers (it may be restarting): the phone taps again."""
    while True:
        try:
            return call()
        except OSError:
            stats.add(f"{what}: no answer, sent again")
            if stop.is_set():
                raise
            time.sleep(0.5)


@dataclass
class Table:
    """One table's phones and what they were told: the events in force, by the answers."""

    index: int
    port: int
    stats: Stats
    stop: threading.Event
    rng: random.Random
    games: list[dict] = field(default_factory=list)  # per game: id, game, options, players, events told
    phones: list[Phone] = field(default_factory=list)
    table_id: str = ""
    version: int = 0
    sleeping: set = field(default_factory=set)

    pace: tuple[float, float] = TAP_SECONDS

    def pause(self) -> None:
        self.stop.wait(self.rng.uniform(*self.pace))

    def run(self) -> None:
        try:
            self._new_table()
            while not self.stop.is_set():
                self._play()
                if self.stop.is_set():
                    break
                self._rematch()
        except OSError:
            if not self.stop.is_set():
                raise
        except Exception as crash:  # a bug of the soak or a broken answer: counted, this table stops
            self.stats.add("tables stopped by an error")
            with self.stats.lock:
                self.stats.server_errors.append(f"table {self.index}: {crash!r}")

    # --- the lobby ---------------------------------------------------------------
    def _new_table(self) -> None:
        game, players = GAMES[self.index % len(GAMES)]
        self.phones = [Phone(self.port, self.stats) for _ in range(players)]
        creator = self.phones[0]
        until_answered(lambda: creator.page("/"), self.stats, self.stop, "page")
        status, headers, _ = until_answered(lambda: creator.form("/tables", {"game": game, "name": NAMES[0]}, htmx=False),
                                            self.stats, self.stop, "create")
        assert status == 303, status
        self.table_id = urlsplit(headers["Location"]).path.split("/")[2]
        _, _, lobby = until_answered(lambda: creator.page(f"/t/{self.table_id}"), self.stats, self.stop, "page")
        code = re.search(r'id="join-code">([^<]+)<', lobby).group(1)
        for n, phone in enumerate(self.phones[1:], start=1):
            until_answered(lambda: phone.page(f"/j/{code}"), self.stats, self.stop, "page")
            status, _, _ = until_answered(lambda: phone.form(f"/j/{code}", {"name": NAMES[n]}, htmx=False),
                                          self.stats, self.stop, "join")
            assert status == 303, status
        status, _, _ = until_answered(lambda: creator.form(f"/t/{self.table_id}/start", {}), self.stats, self.stop, "start")
        assert status in (200, 204), status
        self._begin_game(game, players)

    def _begin_game(self, game: str, players: int) -> None:
        for phone in self.phones:
            until_answered(lambda: phone.page(f"/t/{self.table_id}"), self.stats, self.stop, "page")
        record = self._server_record()
        events = random_record(game, record["options"], players, self.rng.randrange(10**9))["events"]
        self.games.append({"id": self.table_id, "game": game, "options": record["options"],
                           "players": record["players"], "told": [], "plan": events})
        self.version = 0
        self.stats.add("games started")

    def _server_record(self) -> dict:
        status, _, text = until_answered(lambda: self.phones[0].request("GET", f"/t/{self.table_id}/record.json"),
                                         self.stats, self.stop, "record")
        assert status == 200, status
        return json.loads(text)

    # --- a game ------------------------------------------------------------------
    def _play(self) -> None:
        current = self.games[-1]
        plan, told = current["plan"], current["told"]
        while len(told) < len(plan) and not self.stop.is_set():
            self.pause()
            phone = self.rng.choice(self.phones)
            roll = self.rng.random()
            if roll < 0.04:
                self._reload(phone)
            event = plan[len(told)]
            if roll > 0.94 and told:  # a mistyped entry is taken back: undo the last one, enter it again
                self._enter(phone, "undo", {}, undo=True)
                continue
            self._enter(phone, "event", {"event": json.dumps(event)}, event=event)
        if len(told) == len(plan):
            self.stats.add("games completed")

    def _enter(self, phone: Phone, route: str, fields: dict, event=None, undo: bool = False) -> None:
        fields = {**fields, "version": str(self.version), "key": uuid.uuid4().hex}
        path = f"/t/{self.table_id}/{route}"
        roll = self.rng.random()
        if roll < 0.05:  # Wi-Fi lost right after sending: no answer; reload, tap the same button again
            phone.drop(path, fields)
            self.stats.add("entries dropped mid-request")
            self._reload(phone)
        if 0.05 <= roll < 0.10:  # a double tap: the same request twice at once
            twin = Phone(self.port, self.stats)
            twin.cookies, twin.csrf = dict(phone.cookies), phone.csrf
            answers = []
            thread = threading.Thread(target=lambda: answers.append(self._send(twin, path, fields)))
            thread.start()
            status = self._send(phone, path, fields)
            thread.join()
            twin.close()
            self.stats.add("double taps")
            if answers and answers[0] != status:
                self.stats.add("double taps answered differently")
        else:
            status = self._send(phone, path, fields)
        if status != 200:
            raise AssertionError(f"table {self.index}: {route} at version {self.version} answered {status}")
        self.version += 1
        told = self.games[-1]["told"]
        if undo:
            told.pop()
            self.stats.add("undos acknowledged")
        else:
            told.append(event)
            self.stats.add("entries acknowledged")

    def _send(self, phone: Phone, path: str, fields: dict) -> int:
        """The entry's answer; when the run ends before it came, the entry is noted as
        sent but unanswered (the server may have taken it: the check allows either)."""
        try:
            status, _, _ = until_answered(lambda: phone.form(path, fields), self.stats, self.stop, "entry")
        except OSError:
            self.games[-1]["unanswered"] = fields.get("event", "undo")
            raise
        return status

    def _reload(self, phone: Phone) -> None:
        until_answered(lambda: phone.page(f"/t/{self.table_id}"), self.stats, self.stop, "page")
        self.stats.add("reloads")

    def _rematch(self) -> None:
        """Every phone taps "Revanche": the first creates the next game, the others find
        it; each gets its seat there and opens the new table's page."""
        follows = set()
        for phone in self.phones:
            status, headers, _ = until_answered(lambda: phone.form(f"/t/{self.table_id}/rematch", {}),
                                                self.stats, self.stop, "rematch")
            assert status == 204 and headers.get("HX-Location"), status
            follows.add(urlsplit(headers["HX-Location"]).path.split("/")[2])
        assert len(follows) == 1, follows
        self.table_id = follows.pop()
        self.stats.add("rematches")
        current = self.games[-1]
        self._begin_game(current["game"], len(current["players"]))

    # --- the phones' sync polls ---------------------------------------------------------
    def poll(self, position: int) -> None:
        """The page's held sync poll, as htmx sends it (every 500 ms, held up to 20 s);
        now and then the phone sleeps (no poll for 20–120 s) and wakes."""
        poller = Phone(self.port, self.stats)
        revision = 0
        while not self.stop.is_set():
            if not self.table_id or position >= len(self.phones):
                self.stop.wait(1)
                continue
            if self.rng.random() < 0.004:
                self.stats.add("phones slept")
                poller.close()
                self.stop.wait(self.rng.uniform(20, 120))
            poller.cookies = dict(self.phones[position].cookies)
            table = self.table_id
            try:
                status, headers, text = poller.request(
                    "GET", f"/t/{table}/sync?rev={revision}&phase=play&hold=1", headers={"HX-Request": "true"},
                    timeout=30)
            except OSError:
                self.stats.add("polls without an answer")
                self.stop.wait(1)
                continue
            self.stats.add("polls")
            if status == 200 and (found := SYNC_REV.search(text)):
                revision = int(found.group(1))
            elif status == 204 and headers.get("HX-Location"):
                revision = 0
            self.stop.wait(0.5)
        poller.close()


# --- the server and its samples ---------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int, env: dict, log) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port)],
                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not start")


def processes(master: int) -> list[int]:
    """The gunicorn master and its workers."""
    children = Path(f"/proc/{master}/task/{master}/children")
    try:
        return [master] + [int(pid) for pid in children.read_text().split()]
    except OSError:
        return []


def sample(pid: int) -> dict | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None
    values = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if "VmRSS" not in values:  # a zombie (the run command's migration, just ended)
        return None
    return {"pid": pid, "rss_mb": round(int(values["VmRSS"].split()[0]) / 1024, 1),
            "threads": int(values["Threads"]), "fds": fds}


def database_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())


# --- the checks at the end ------------------------------------------------------------------
def check(tables: list[Table], port: int, stats: Stats) -> dict:
    """Every game's record on the server is what its phones were told, and replays to it."""
    reader = Phone(port, stats)
    result = Counter()
    problems = []
    for table in tables:
        for game in table.games:
            status, _, text = reader.request("GET", f"/t/{game['id']}/record.json")
            if status != 200:
                problems.append(f"{game['id']}: record answered {status}")
                continue
            record = json.loads(text)
            result["games checked"] += 1
            result["events checked"] += len(game["told"])
            if record["events"] != game["told"] and record["events"] not in taken_or_not(game):
                problems.append(f"{game['id']}: {len(record['events'])} events on the server, "
                                f"{len(game['told'])} acknowledged")
                continue
            if record["events"] != game["told"]:
                result["games ending with an entry sent, not answered, and taken"] += 1
                continue
            replayed, seen = new_game(record["game"], record["options"], record["players"]), \
                new_game(game["game"], game["options"], game["players"])
            for event in record["events"]:
                replayed.apply(event)
            for event in game["told"]:
                seen.apply(event)
            if replayed.state() != seen.state():
                problems.append(f"{game['id']}: replays to another state")
    reader.close()
    return {"counts": dict(result), "problems": problems}


def taken_or_not(game: dict) -> list[list]:
    """The records a game may hold besides the events its phones were told: with the
    entry that was sent when the run ended and never answered taken too."""
    sent = game.get("unanswered")
    if sent is None:
        return []
    if sent == "undo":
        return [game["told"][:-1]]
    return [game["told"] + [json.loads(sent)]]


def markdown(result: dict, every: float = 5.0) -> str:
    """The samples of a run (one row each ``every`` minutes, and the last) as Markdown
    tables: the server processes over time, then the counts."""
    rows = ["| minute | server processes: pid RSS MB / threads / fds | database | entries acknowledged |",
            "|---|---|---|---|"]
    shown, samples = -every, result["samples"]
    for n, row in enumerate(samples):
        if row["minute"] < shown + every and n != len(samples) - 1:
            continue
        shown = row["minute"]
        processes = "; ".join(f"{p['pid']}: {p['rss_mb']:.0f} / {p['threads']} / {p['fds']}" for p in row["processes"])
        rows.append(f"| {row['minute']:.1f} | {processes} | {row['database_kb'] / 1024:.1f} MB | {row['entries']:,} |")
    rows += ["", "| what | count |", "|---|---|"]
    rows += [f"| {name} | {count:,} |" for name, count in sorted(result["counts"].items())]
    rows += [f"| answers {status} | {count:,} |" for status, count in result["statuses"].items()]
    rows += [f"| {name} (check) | {count:,} |" for name, count in result["check"]["counts"].items()]
    rows += [f"| problems found by the check | {len(result['check']['problems'])} |",
             f"| 5xx answers and broken tables | {len(result['server_errors'])} |"]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--tap-seconds", type=float, nargs=2, default=TAP_SECONDS, metavar=("MIN", "MAX"),
                        help="seconds between two taps at a table (default %(default)s; less only to try it out)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "soak.json")
    parser.add_argument("--markdown", type=Path, metavar="JSON",
                        help="only print the tables of a finished run's JSON (for docs/reliability.md)")
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(args.markdown.read_text())))
        return 0

    workdir = Path(tempfile.mkdtemp(prefix="kt-soak-"))
    database = workdir / "soak.sqlite3"
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "soak-" + uuid.uuid4().hex,
           "KT_RATELIMIT_ENABLED": "false"}
    stats, stop = Stats(), threading.Event()
    log = open(workdir / "server.log", "wb")
    server = start_server(port, env, log)
    started = time.monotonic()
    seconds = args.minutes * 60
    tables = [Table(n, port, stats, stop, random.Random(n), pace=tuple(args.tap_seconds)) for n in range(args.tables)]
    threads = [threading.Thread(target=t.run, daemon=True) for t in tables]
    threads += [threading.Thread(target=t.poll, args=(p,), daemon=True) for t in tables for p in range(3)]
    for n, thread in enumerate(threads):
        thread.start()
        if n < args.tables:
            time.sleep(0.2)
    samples, events = [], []
    restarted = killed = False
    next_sample = 0.0
    try:
        while (elapsed := time.monotonic() - started) < seconds:
            if elapsed >= next_sample:
                pids = processes(server.pid)
                samples.append({"minute": round(elapsed / 60, 1), "database_kb": database_bytes(database) // 1024,
                                "processes": [s for s in map(sample, pids) if s],
                                "entries": stats.counts["entries acknowledged"], "polls": stats.counts["polls"]})
                print(json.dumps(samples[-1]), flush=True)
                next_sample += SAMPLE_SECONDS
            if not restarted and elapsed >= seconds * 2 / 3:
                os.kill(server.pid, signal.SIGHUP)  # gunicorn: new workers, the old ones finish their requests
                events.append({"minute": round(elapsed / 60, 1), "what": "SIGHUP (graceful restart)"})
                restarted = True
            if not killed and elapsed >= seconds * 5 / 6:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
                server = start_server(port, env, log)
                events.append({"minute": round(elapsed / 60, 1), "what": "SIGKILL of every server process, started again"})
                killed = True
            time.sleep(1)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=40)
    verdict = check(tables, port, stats)
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=40)
    log.close()
    statuses = dict(sorted(stats.statuses.items()))
    result = {"minutes": args.minutes, "tables": args.tables, "events": events, "samples": samples,
              "counts": dict(stats.counts), "statuses": statuses, "server_errors": stats.server_errors[:50],
              "check": verdict, "workdir": str(workdir)}
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "samples"}, indent=1))
    failed = stats.server_errors or verdict["problems"] or sum(n for s, n in statuses.items() if s >= 500)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
