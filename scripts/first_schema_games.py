"""Make ``tests/reliability/data/first_schema_games.json``: games as the first
release wrote them, for the upgrade test (tests/reliability/test_upgrades.py).

The app of the commit that added the first migration (``6c10b3ac45bc``) is taken
out of git into a temporary folder and run there on a fresh SQLite database, through
its own JSON API: tables of all three games (Gleich und gleich, CuBirds, CuBirds
solo, Gemeinsame Sache) finished, in the middle (with undos) and in the lobby, one
imported. Then every row of its tables, seats and events is written out with the
seat tokens and what the old app answered for each table (its record and state).
The stored answer of an entry (a whole state) is kept for each table's last entry only.

    .venv/bin/python scripts/first_schema_games.py   # from the repository's root

The file is made once and kept: the upgrade test must not need git history.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIRST_RELEASE = "e0634e5"  # added migrations/versions/6c10b3ac45bc_tables_seats_events.py
OUTPUT = REPO / "tests" / "reliability" / "data" / "first_schema_games.json"

# Runs inside the old checkout (its engine, webapp, migrations); prints the JSON.
INSIDE = r'''
import json, sys, tempfile
import sqlalchemy as sa
from webapp import create_app
from webapp.extensions import db
from engine.randomplay import random_record

folder = tempfile.mkdtemp()
app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/old.sqlite3",
                  "SECRET_KEY": "old", "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False})
client = app.test_client()
rummy = json.loads(sys.stdin.read())  # Gemeinsame Sache: the old checkout had no random player
tokens, answers = {}, {}

def post(path, body, token=None):
    answer = client.post(path, json=body, headers={"Authorization": f"Bearer {token}"} if token else {})
    assert answer.status_code in (200, 201), (path, answer.json)
    return answer.json

def table(game, options, names, events, undo_every=0, start=True):
    made = post("/api/tables", {"game": game, "options": options, "name": names[0]})
    seat_tokens = [made["token"]]
    for name in names[1:]:
        seat_tokens.append(post(f"/api/tables/{made['id']}/seats", {"join_code": made["join_code"], "name": name})["token"])
    tokens[made["id"]] = seat_tokens
    if not start:
        return
    post(f"/api/tables/{made['id']}/start", {}, seat_tokens[0])
    version = 0
    for n, event in enumerate(events):
        seat = seat_tokens[n % len(seat_tokens)]
        version = post(f"/api/tables/{made['id']}/events", {"event": event, "version": version, "key": f"k{n}"}, seat)["version"]
        if undo_every and n % undo_every == undo_every - 1:
            version = post(f"/api/tables/{made['id']}/undo", {"version": version, "key": f"u{n}"}, seat)["version"]
            version = post(f"/api/tables/{made['id']}/events", {"event": event, "version": version, "key": f"r{n}"}, seat)["version"]

for game, options, names, seed in [("gleich-und-gleich", {}, ["Anna", "Ben", "Carla"], 1),
                                   ("cubirds", {}, ["Dora", "Emil"], 2),
                                   ("cubirds", {"solo": True}, ["Fritz"], 3)]:
    events = random_record(game, options, len(names) + bool(options.get("solo")), seed)["events"]
    table(game, options, names, events, undo_every=9)              # finished, with undos
    table(game, options, names, events[:len(events) // 4])         # in the middle
for record in rummy:
    table("gemeinsame-sache", record["options"], ["Gerd", "Hanna"], record["events"], undo_every=7)
table("gemeinsame-sache", {}, ["Ida", "Jan"], rummy[0]["events"][:11])
table("gleich-und-gleich", {}, ["Kai"], [], start=False)             # in the lobby
record = random_record("cubirds", {}, 4, 4)
imported = post("/api/tables", {"record": dict(record, players=["Lea", "Max", "Nora", "Olaf"])})
tokens[imported["id"]] = [imported["token"]]

for table_id, seat_tokens in tokens.items():
    auth = {"Authorization": f"Bearer {seat_tokens[0]}"}
    started = client.get(f"/api/tables/{table_id}", headers=auth).json["status"] == "playing"
    answers[table_id] = {"record": client.get(f"/api/tables/{table_id}/record", headers=auth).json,
                         "state": client.get(f"/api/tables/{table_id}/state", headers=auth).json} if started else None

JSON_COLUMNS = {"options", "players", "event", "effect", "answer"}
with app.app_context():
    rows = {name: [{column: json.loads(value) if column in JSON_COLUMNS and isinstance(value, str) else value
                    for column, value in row._mapping.items()}
                   for row in db.session.execute(sa.text(f"SELECT * FROM {name} ORDER BY 1"))]
            for name in ("tables", "seats", "events")}
last = {}
for row in rows["events"]:
    last[row["table_id"]] = row["id"]
for row in rows["events"]:  # a whole state each: kept for each table's last entry only (a retry of it)
    if row["id"] != last[row["table_id"]]:
        row["answer"] = None
rows = {name: {"columns": list(found[0]), "values": [list(row.values()) for row in found]} for name, found in rows.items()}
print(json.dumps({"rows": rows, "tokens": tokens, "answers": answers}, default=str))
'''


def main() -> None:
    sys.path.insert(0, str(REPO))
    from engine.randomplay import random_record

    rummy = [random_record("gemeinsame-sache", options, 2, seed)
             for seed, options in ((2, {"level": "schwer"}),)]
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "archive", FIRST_RELEASE], cwd=REPO, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        made = subprocess.run([sys.executable, "-c", INSIDE], cwd=folder, input=json.dumps(rummy), text=True,
                              capture_output=True, env={"PYTHONPATH": folder, "PATH": "/usr/bin:/bin"})
        if made.returncode:
            sys.exit(made.stderr)
    data = json.loads(made.stdout)
    OUTPUT.parent.mkdir(exist_ok=True)
    OUTPUT.write_text(json.dumps({
        "made_by": f"scripts/first_schema_games.py: the app of commit {FIRST_RELEASE} (migration 6c10b3ac45bc)",
        "revision": "6c10b3ac45bc", **data}, ensure_ascii=False, separators=(",", ":")) + "\n")
    counts = {name: len(rows["values"]) for name, rows in data["rows"].items()}
    print(f"{OUTPUT.relative_to(REPO)}: {counts}, {OUTPUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
