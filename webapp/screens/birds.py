"""Minimal screens of the bird games (to be replaced by the real phone screens)."""
from flask_babel import lazy_gettext as _l

from .generic import OptionField, Screen

SOLO = OptionField("solo", _l("Solo gegen RobinBird"))

gleich_und_gleich = Screen(
    folder="birds",
    option_fields=[
        OptionField("fast", _l("Schnelles Spiel")),
        OptionField("rarer_faces", _l("Seltenere Seltene")),
        SOLO,
    ],
)

cubirds = Screen(folder="birds", option_fields=[SOLO])
