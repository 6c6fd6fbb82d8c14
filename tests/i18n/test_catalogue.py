"""The English catalogue covers every German message id in the sources.

The message ids are extracted afresh from the sources (babel.cfg), so a new
``_("…")`` or engine refusal without a translation fails here, not in front of
an English-speaking player. To fix: ``./kt i18n-update``, then translate the
empty (or ``fuzzy``-flagged) entries in translations/en/LC_MESSAGES/messages.po.
"""
from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[2]
BABEL_CFG = REPO / "babel.cfg"
ENGLISH_PO = REPO / "translations" / "en" / "LC_MESSAGES" / "messages.po"
ENGINE_PATTERN = "engine/**.py"
HOW_TO_FIX = ("Run `./kt i18n-update`, then translate these entries in "
              "translations/en/LC_MESSAGES/messages.po (and drop a `#, fuzzy` flag once checked).")
PERCENT_PLACEHOLDER = re.compile(r"%\((\w+)\)[sdifr]")


def _mapping():
    with BABEL_CFG.open() as cfg:
        return parse_mapping_cfg(cfg, str(BABEL_CFG))


@pytest.fixture(scope="module")
def sources() -> dict[str, list[str]]:
    """German msgid (singular) -> where it occurs ("file:line")."""
    method_map, options_map = _mapping()
    found: dict[str, list[str]] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(str(REPO), method_map, options_map):
        msgid = message if isinstance(message, str) else message[0]
        found.setdefault(msgid, []).append(f"{filename}:{lineno}")
    return found


@pytest.fixture(scope="module")
def english():
    with ENGLISH_PO.open("rb") as po:
        return read_po(po, locale="en")


def _translations(entry) -> list[str]:
    return list(entry.string) if isinstance(entry.string, (tuple, list)) else [entry.string]


def test_sources_have_german_message_ids(sources):
    assert len(sources) > 0, f"babel.cfg found no message ids under {REPO}"


def test_every_german_message_has_an_english_translation(sources, english):
    missing = []
    for msgid, places in sorted(sources.items()):
        entry = english.get(msgid)
        if entry is None:
            missing.append(f"  not in the catalogue: {msgid!r}  ({', '.join(places)})")
        elif entry.fuzzy or not all(_translations(entry)):
            missing.append(f"  {'fuzzy' if entry.fuzzy else 'empty'}: {msgid!r}  ({', '.join(places)})")
    assert not missing, f"{len(missing)} German message(s) without an English translation:\n" + \
        "\n".join(missing) + "\n" + HOW_TO_FIX


def _placeholders(text: str) -> set[str]:
    braces = {field for _literal, field, _spec, _conv in string.Formatter().parse(text) if field is not None}
    return braces | set(PERCENT_PLACEHOLDER.findall(text))


def test_translations_keep_the_placeholders(sources, english):
    wrong = []
    for msgid in sorted(sources):
        entry = english.get(msgid)
        if entry is None or entry.fuzzy:
            continue
        expected = _placeholders(msgid)
        for translation in filter(None, _translations(entry)):
            if _placeholders(translation) != expected:
                wrong.append(f"  {msgid!r} has {sorted(expected)}, {translation!r} has {sorted(_placeholders(translation))}")
    assert not wrong, "translations whose placeholders differ from the German (the format call would fail):\n" + \
        "\n".join(wrong)


def _passes_a_template_on(argument: ast.expr, enclosing: list[ast.FunctionDef], keywords: dict) -> bool:
    """Re-raising an existing template (``err.template``), or a helper that is
    itself a babel keyword handing its parameter on."""
    if isinstance(argument, ast.Attribute) and argument.attr == "template":
        return True
    if isinstance(argument, ast.Name):
        return any(f.name in keywords and argument.id in {a.arg for a in f.args.args} for f in enclosing)
    return False


def _untranslatable_refusals(path: Path, keywords: dict) -> list[str]:
    """Calls of the engine's error classes whose template babel can't extract."""
    problems = []

    def visit(node: ast.AST, enclosing: list) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            enclosing = enclosing + [node]
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in keywords:
                position = (keywords[name] or (1,))[0] - 1
                argument = node.args[position] if len(node.args) > position else None
                literal = isinstance(argument, ast.Constant) and isinstance(argument.value, str)
                if not literal and not _passes_a_template_on(argument, enclosing, keywords):
                    shown = ast.unparse(argument) if argument is not None else "(missing; given as keyword?)"
                    problems.append(f"  {path.relative_to(REPO)}:{node.lineno}: {name}(…) template is {shown}")
        for child in ast.iter_child_nodes(node):
            visit(child, enclosing)

    visit(ast.parse(path.read_text(encoding="utf-8")), [])
    return problems


def test_engine_refusal_templates_are_extractable():
    """Every engine refusal passes its German template as a plain string
    literal in the position babel.cfg names, so it lands in the catalogue."""
    _method_map, options_map = _mapping()
    keywords = options_map[ENGINE_PATTERN]["keywords"]
    problems = [p for path in sorted((REPO / "engine").rglob("*.py")) for p in _untranslatable_refusals(path, keywords)]
    assert not problems, (
        "engine refusals whose template is not a string literal (babel can't extract it, so it is never "
        "translated; a conditional `\"a\" if x else \"b\"` is even merged into one bogus id):\n"
        + "\n".join(problems)
        + "\nPass a literal (raise in each branch), or add a helper that takes the template to the "
        "keywords in babel.cfg."
    )
