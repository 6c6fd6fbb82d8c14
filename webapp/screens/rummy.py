"""Minimal screen of Gemeinsame Sache (to be replaced by the real phone screen)."""
from flask_babel import lazy_gettext as _l

from .generic import OptionField, Screen

screen = Screen(
    folder="rummy",
    option_fields=[
        OptionField("level", _l("Schwierigkeit"),
                    (("", _l("Normal (Standard)")), ("leicht", _l("Leicht")),
                     ("normal", _l("Normal")), ("schwer", _l("Schwer")))),
        OptionField("ace_low_only", _l("Ass unten")),
        OptionField("max_starts", _l("Drei Ansätze"), value=3),
        OptionField("open_hands", _l("Offene Hände")),
    ],
)
