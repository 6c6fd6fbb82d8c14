"""Minimal screen of the bird games (to be replaced by the real phone screen)."""
from flask_babel import lazy_gettext as _l

from .generic import OptionField, Screen

screen = Screen(
    folder="birds",
    option_fields=[
        OptionField("fast", _l("Schnelles Spiel")),
        OptionField("rarer_faces", _l("Seltenere Seltene (nur Gleich und gleich)")),
        OptionField("solo", _l("Solo gegen RobinBird (nur CuBirds)")),
    ],
)
