"""A tour of every page a phone can show, for the accessibility, translation
and screenshot tests: start, join, lobby (seated and watching), each game's
table page in each main state (the first position of each kind of awaited
entry, and the game over), the viewer's table, the error pages.

Tables in a given state are imports of a random legal record cut at that
state (through the JSON API); the phone then opens the creator's seat link.
"""
from __future__ import annotations

from collections.abc import Iterator

from playwright.sync_api import Page

from engine.randomplay import random_record
from engine.records import new_game

GAMES = (("gleich-und-gleich", 3), ("cubirds", 2), ("gemeinsame-sache", 2))
PLAYERS = ("Anna", "Ben", "Carla")  # names that are words in neither language
SEED = 7


def main_states(record: dict) -> list[tuple[str, int]]:
    """(state name, number of events) for the first position of each kind of
    awaited entry, and ("over", all events) for the finished game."""
    game = new_game(record["game"], record["options"], record["players"])
    states: dict[str, int] = {}
    for index, event in enumerate(record["events"]):
        states.setdefault(game.awaiting.kind, index)
        game.apply(event)
    assert game.outcome() is not None, f"the random {record['game']} record does not finish"
    return list(states.items()) + [("over", len(record["events"]))]


def create_table(page: Page, body: dict) -> dict:
    """A table through the JSON API: the answer (id, join_url, seat_url, …)."""
    answer = page.request.post("/api/tables", data=body)
    assert answer.status == 201, f"POST /api/tables answered {answer.status}: {answer.text()[:300]}"
    return answer.json()


def visit(page: Page, url: str, status: int = 200) -> Page:
    response = page.goto(url)
    assert response is not None and response.status == status, \
        f"{url} answered {response and response.status}, expected {status}"
    return page


def tour(player: Page, viewer: Page, language: str) -> Iterator[tuple[str, Page]]:
    """Yield (name, page) at every stop; ``player`` holds the seats, ``viewer`` none."""
    visit(viewer, f"/?lang={language}")  # the language cookie, for the rest of the tour
    yield "start", visit(player, f"/?lang={language}")

    lobby = create_table(player, {"game": "gleich-und-gleich", "options": {}, "name": PLAYERS[0]})
    yield "lobby", visit(player, lobby["seat_url"])
    yield "join", visit(viewer, lobby["join_url"])
    yield "lobby-viewer", visit(viewer, f"/t/{lobby['id']}")

    watched = None
    for game, players in GAMES:
        record = {**random_record(game, {}, players, SEED), "players": list(PLAYERS[:players])}
        for state, cut in main_states(record):
            table = create_table(player, {"record": {**record, "events": record["events"][:cut]}})
            watched = watched or table
            yield f"{game}-{state}", visit(player, table["seat_url"])

    yield "play-viewer", visit(viewer, f"/t/{watched['id']}")
    yield "error-no-table", visit(viewer, "/t/no-such-table", 404)
    yield "error-seat-link", visit(viewer, f"/t/{watched['id']}/s/not-a-seat-token", 403)


def report(problems_by_stop: dict[str, list[str]]) -> str:
    """The problems, each once, with the stops where it occurs."""
    stops_by_problem: dict[str, list[str]] = {}
    for stop, problems in problems_by_stop.items():
        for problem in problems:
            stops_by_problem.setdefault(problem, []).append(stop)
    return "\n".join(f"  {problem}\n      on: {', '.join(stops)}" for problem, stops in stops_by_problem.items())
