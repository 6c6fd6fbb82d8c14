"""The checks of input: each refuses with a sentence naming the limit."""
from __future__ import annotations

from ..errors import Refusal
from ..i18n import lazy_gettext as _l

NAME_MAX = 40
KEY_MAX = 64
EVENTS_MAX = 5000  # entries per table (undos included); a long real game has a few hundred
NAME_RULE = _l("Bitte einen Namen mit 1 bis {max} Zeichen eingeben")


def clean_name(name) -> str:
    """The name with its whitespace collapsed: 1 to NAME_MAX printable characters."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_MAX \
            or not "".join(name.split()).isprintable():
        raise Refusal(422, "bad-name", NAME_RULE, {"max": NAME_MAX})
    return " ".join(name.split())


def stored_name(name) -> str:
    """A name as it is stored already (a record's players): refused unless clean."""
    if clean_name(name) != name:
        raise Refusal(422, "bad-name", NAME_RULE, {"max": NAME_MAX})
    return name


def version(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Refusal(400, "bad-version", _l("\"version\" muss eine ganze Zahl ab 0 sein"))
    return value


def key(value) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= KEY_MAX or not value.isprintable():
        raise Refusal(400, "bad-key", _l("\"key\" muss ein Text mit 1 bis {max} Zeichen sein"), {"max": KEY_MAX})
    return value


def options(value) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Refusal(422, "bad-options", _l("\"options\" muss ein Objekt sein"))
    return value


def event_count(count: int) -> None:
    """Refuse a table that would hold more than EVENTS_MAX entries."""
    if count > EVENTS_MAX:
        raise Refusal(413, "too-many-events", _l("Ein Tisch fasst höchstens {max} Einträge"), {"max": EVENTS_MAX})
