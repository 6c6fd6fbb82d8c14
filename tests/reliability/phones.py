"""Phones talking JSON to a running server over real HTTP (loopback only).

Used by the race and retry tests and by ``scripts/crash_test.py``.
"""
from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

IDLE_REOPEN_S = 1.0  # a keep-alive connection idle this long is opened afresh


class Phone:
    """One keep-alive HTTP connection, like one phone at the table."""

    def __init__(self, base_url: str, timeout: float = 30.0):
        parts = urlsplit(base_url)
        assert parts.hostname == "127.0.0.1", f"reliability tests talk to loopback only, not {base_url}"
        self.host, self.port, self.timeout = parts.hostname, parts.port, timeout
        self.connection: http.client.HTTPConnection | None = None
        self.used_at = 0.0

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
        """(status, JSON answer). A broken connection raises ``OSError`` /
        ``http.client.HTTPException`` and is reopened on the next call."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if self.connection is not None and time.monotonic() - self.used_at > IDLE_REOPEN_S:
            self.close()  # the server may be closing it right now (gunicorn's keep-alive is 2 s)
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            self.connection.request(method, path, body=json.dumps(body) if body is not None else None,
                                    headers=headers)
            response = self.connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        self.used_at = time.monotonic()
        return response.status, json.loads(raw) if raw else {}

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


@dataclass
class TableAtHand:
    id: str
    tokens: list[str] = field(default_factory=list)


def seat_players(phone: Phone, game: str, names: list[str], options: dict | None = None) -> TableAtHand:
    """Create a table, seat ``names`` and start it, through the API."""
    status, made = phone.call("POST", "/api/tables", {"game": game, "options": options or {}, "name": names[0]})
    assert status == 201, made
    table = TableAtHand(made["id"], [made["token"]])
    for name in names[1:]:
        status, joined = phone.call("POST", f"/api/tables/{table.id}/seats",
                                    {"join_code": made["join_code"], "name": name})
        assert status == 201, joined
        table.tokens.append(joined["token"])
    status, started = phone.call("POST", f"/api/tables/{table.id}/start", {}, token=table.tokens[0])
    assert status == 200, started
    return table
