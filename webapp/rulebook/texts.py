"""The rule texts as the app shows them: the three German texts (``texts/*.txt``,
copied unchanged from the project's rules) cut into sections, and the decisions the
project took where the texts leave something open (``texts/decisions.md``, in
English; ``decisions_de.py`` holds the German wording)."""
from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "texts"

SOURCES = {   # game → its rule text
    "gleich-und-gleich": "000_957742b08f7a4f7e.txt",
    "cubirds": "003_4a38b4132ada28dc.txt",
    "gemeinsame-sache": "004_c92330d49b0acd97.txt",
}
# The headings of the CuBirds text (the two house texts list theirs at the top).
CUBIRDS_HEADINGS = ("Spielmaterial", "Spielvorbereitung", "Ziel des Spiels", "Spielablauf", "Spielzug",
                    "1. VÖGEL ANLEGEN (VERPFLICHTEND)", "2. EINEN SCHWARM AUSSPIELEN (OPTIONAL)", "Rundenende",
                    "Ende des Spiels", "Solovariante", "Anhang", "Hinweise zur Bedienung")
DECISION_HEADINGS = {"gleich-und-gleich": "Gleich und gleich", "cubirds": "CuBirds (original)",
                     "gemeinsame-sache": "Gemeinsame Sache"}


@dataclass(frozen=True)
class Block:
    """A paragraph, or a list (``items``) of a section."""

    text: str = ""
    items: tuple[str, ...] = ()
    numbered: bool = False


@dataclass(frozen=True)
class Section:
    heading: str
    anchor: str
    blocks: tuple[Block, ...]

    @property
    def text(self) -> str:
        return " ".join(b.text or " ".join(b.items) for b in self.blocks)


@dataclass(frozen=True)
class RuleText:
    title: str
    sections: tuple[Section, ...]

    def section_of(self, sentence: str) -> Section | None:
        """The section that holds ``sentence`` (whitespace aside)."""
        wanted = squeeze(sentence)
        return next((s for s in self.sections if wanted in squeeze(s.text)), None)


def squeeze(text: str) -> str:
    return " ".join(text.split())


def slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text.lower().replace("ß", "ss"))
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")


@functools.cache
def rule_text(game: str) -> RuleText:
    """The rule text of ``game``, cut at its headings."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", (FOLDER / SOURCES[game]).read_text(encoding="utf-8"))]
    title, rest = paragraphs[0], paragraphs[1:]
    if rest and rest[0] == "Ausführliche Regeln":      # the house texts: a line, then their contents
        contents = rest[1].splitlines()
        headings = [re.sub(r"^\d+\.\s*", "", line).strip() for line in contents]
        rest = rest[2:]
    else:
        headings, title, rest = list(CUBIRDS_HEADINGS), "CuBirds", paragraphs
    sections, current, blocks, seen = [], None, [], {}
    for paragraph in rest:
        if paragraph in headings:
            if current is not None or blocks:
                sections.append(_section(current or title, blocks, seen))
            current, blocks = paragraph, []
        else:
            blocks.append(_block(paragraph))
    sections.append(_section(current or title, blocks, seen))
    return RuleText(title, tuple(sections))


def _section(heading: str, blocks: list[Block], seen: dict) -> Section:
    anchor = slug(heading)
    seen[anchor] = seen.get(anchor, 0) + 1
    if seen[anchor] > 1:
        anchor = f"{anchor}-{seen[anchor]}"
    return Section(heading, anchor, tuple(blocks))


def _block(paragraph: str) -> Block:
    lines = [line.strip() for line in paragraph.splitlines() if line.strip()]
    if all(line.startswith("•") for line in lines):
        return Block(items=tuple(line.lstrip("• ").strip() for line in lines))
    if len(lines) > 1 and all(re.match(r"\d+\.\s", line) for line in lines):
        return Block(items=tuple(re.sub(r"^\d+\.\s*", "", line) for line in lines), numbered=True)
    return Block(text="\n".join(lines))


@functools.cache
def decisions(game: str) -> tuple[str, ...]:
    """The project's decisions for ``game`` (Markdown, English), from ``decisions.md``."""
    text = (FOLDER / "decisions.md").read_text(encoding="utf-8")
    heading = f"### {DECISION_HEADINGS[game]}"
    part = text[text.index(heading) + len(heading):]
    part = part.split("\n### ", 1)[0]
    items = tuple(item.strip() for item in re.split(r"\n(?=\d+\. )", "\n" + part.strip()) if item.strip())
    if game == "gleich-und-gleich":   # CuBirds' decisions marked "(both bird games)" hold here too
        items = tuple(item for item in decisions("cubirds") if "(both bird games)" in item) + items
    return items
