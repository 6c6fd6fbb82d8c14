"""The README and the docs point only at files that exist."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"""(?:src="|\]\()(?!https?:|#|mailto:)([^")#\s]+)""")


def test_every_local_link_and_image_exists():
    missing = [
        f"{doc.relative_to(ROOT)} → {target}"
        for doc in DOCS
        for target in LINK.findall(doc.read_text(encoding="utf-8"))
        if not (doc.parent / target).exists()
    ]
    assert not missing, "broken links:\n" + "\n".join(missing)


def test_the_readme_shows_a_screenshot_of_every_game():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shots = re.findall(r'src="docs/screenshots/([\w-]+)\.png"', readme)
    assert any(s.startswith("birds-") for s in shots)
    assert any(s.startswith("rummy-") for s in shots)
