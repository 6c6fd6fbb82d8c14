"""Both languages are complete on every page (tests/e2e/pages_tour.py).

The English tour fails on German text: a German message id of the sources or
the catalogue (its literal parts), a word that only the German texts use, or an umlaut. The
German tour fails on English text the same way. Checked are the visible and
hidden texts, the labels a screen reader or a dialog shows (aria-label, title,
placeholder, alt, hx-confirm), the connection messages of #comfort and the
title. Left out: text marked with another ``lang`` (the language switch) and
machine formats (``code``, ``pre``, ``textarea``: JSON of events and states) and
proper names (``PROPER_NAMES``: the game title "Gleich und gleich" is German in English too).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from pages_tour import report, tour

pytestmark = pytest.mark.presentation  # the same HTML on any database: ./kt test-postgres leaves it out

REPO = Path(__file__).resolve().parents[2]
BABEL_CFG = REPO / "babel.cfg"
ENGLISH_PO = REPO / "translations" / "en" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"\{[^}]*\}|%\(\w+\)[sdifr]")
WORD = re.compile(r"(?<!\w)[A-Za-zÄÖÜäöüß]{3,}(?!\w)")  # not "YET" in a code like "YET385"
GERMAN_LETTERS = re.compile(r"[ÄÖÜäöüß]")
MIN_FRAGMENT = 10  # literal parts shorter than this are too common to tell the language
# words spelt the same in both languages (not a sign of a missing translation)
SHARED_WORDS = {"die", "was", "also", "hat", "will", "war", "man", "bin", "rot", "best", "fast", "hand",
                "name", "runde", "import", "start", "code", "json", "http", "https", "kartentisch", "robinbird"}

# proper names: the same in both languages, though made of German words
PROPER_NAMES = ("Gleich und gleich",)

PAGE_TEXTS = """lang => {
  const texts = [document.title];
  const inOtherLanguage = el => { const marked = el.closest("[lang]"); return marked && marked.lang !== lang; };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (el.closest("script, style, svg, code, pre, textarea") || inOtherLanguage(el)) continue;
    texts.push(walker.currentNode.textContent);
  }
  for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder], [alt], [hx-confirm]")) {
    if (inOtherLanguage(el)) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt", "hx-confirm"]) {
      if (el.hasAttribute(name)) texts.push(el.getAttribute(name));
    }
  }
  const comfort = document.getElementById("comfort");
  if (comfort) texts.push(comfort.dataset.offline, comfort.dataset.refused, comfort.dataset.back);
  return texts.map(t => (t || "").replace(/\\s+/g, " ").trim()).filter(Boolean);
}"""


def literal_parts(message: str) -> list[str]:
    return [part.strip() for part in PLACEHOLDER.split(message) if len(part.strip()) >= MIN_FRAGMENT]


def words(text: str) -> set[str]:
    """The words of a text or message (not the names of its placeholders)."""
    return {word.lower() for word in WORD.findall(PLACEHOLDER.sub(" ", text))}


@pytest.fixture(scope="module")
def catalogue() -> dict[str, str]:
    """German message id -> English: every id in the sources (babel.cfg) and in
    the catalogue, an id without translation mapped to ""; ids the same in both
    languages (names like "CuBirds") left out."""
    with BABEL_CFG.open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg, str(BABEL_CFG))
    pairs = {}
    for _file, _line, message, _comments, _context in extract_from_dir(str(REPO), method_map, options_map):
        pairs.update((german, "") for german in (message if isinstance(message, tuple) else (message,)) if german)
    with ENGLISH_PO.open("rb") as po:
        for entry in read_po(po, locale="en"):
            ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            pairs.update((german, "" if entry.fuzzy else english) for german, english in zip(ids, strings) if german)
    return {german: english for german, english in pairs.items() if english != german}


def foreign_texts(texts: list[str], foreign_messages: list[str], foreign_words: set[str], umlauts: bool) -> list[str]:
    """What in ``texts`` is in the other language."""
    texts = [re.sub("|".join(map(re.escape, PROPER_NAMES)), " ", text) for text in texts]
    joined = "\n".join(texts)
    found = sorted({part for message in foreign_messages for part in literal_parts(message) if part in joined})
    for text in texts:
        stray = sorted(words(text) & foreign_words)
        if stray or (umlauts and GERMAN_LETTERS.search(text)):
            found.append(f"{text[:120]!r}" + (f" (words: {', '.join(stray)})" if stray else " (umlaut)"))
    return found


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_text_of_the_other_language_on_any_page(phone, catalogue, language):
    german_words = set().union(*map(words, catalogue)) - set().union(*map(words, catalogue.values())) - SHARED_WORDS
    english_words = set().union(*map(words, catalogue.values())) - set().union(*map(words, catalogue)) - SHARED_WORDS
    if language == "en":
        foreign_messages, foreign_words = list(catalogue), german_words
    else:
        foreign_messages, foreign_words = [english for english in catalogue.values() if english], english_words
    failures, visited = {}, 0
    for stop, page in tour(phone(), phone(), language):
        visited += 1
        assert page.locator("html").get_attribute("lang") == language, f"{stop}: <html lang> is not {language}"
        found = foreign_texts(page.evaluate(PAGE_TEXTS, language), foreign_messages, foreign_words,
                              umlauts=language == "en")
        if found:
            failures[stop] = found
    assert visited >= 10, f"the tour visited only {visited} pages"
    assert not failures, f"text in the wrong language on the {language!r} pages:\n{report(failures)}"
