"""Helpers for the web tests: tables made through the JSON API, random legal games."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from engine.randomplay import random_record


@dataclass
class TableAtHand:
    """A table made through the API: its id, join code and the seats' tokens."""

    id: str
    join_code: str
    tokens: list[str] = field(default_factory=list)

    def auth(self, seat: int = 0) -> dict:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


@pytest.fixture
def new_table(client):
    """``new_table(game, names, options=None, start=True)`` seats everyone via the API."""
    def make(game: str = "gleich-und-gleich", names=("Anna", "Ben", "Carla"), options=None, start=True):
        made = client.post("/api/tables", json={"game": game, "options": options or {}, "name": names[0]})
        assert made.status_code == 201, made.json
        table = TableAtHand(made.json["id"], made.json["join_code"], [made.json["token"]])
        for name in names[1:]:
            joined = client.post(f"/api/tables/{table.id}/seats", json={"join_code": table.join_code, "name": name})
            assert joined.status_code == 201, joined.json
            table.tokens.append(joined.json["token"])
        if start:
            started = client.post(f"/api/tables/{table.id}/start", headers=table.auth())
            assert started.status_code == 200, started.json
        return table

    return make


def random_events(game: str, players: int, seed: int = 1, options=None) -> list[dict]:
    """The events of a complete random legal game (from the engine)."""
    return random_record(game, dict(options or {}), players, seed)["events"]
