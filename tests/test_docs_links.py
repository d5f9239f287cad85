"""Every relative link of the README and of the pages under docs/ points to a file or folder of the
repository, and every anchor into a Markdown page names one of its headings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: a Markdown inline link or image, [text](target) or ![alt](target "title"): the target, up to a space or ")"
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: fenced code blocks, whose brackets are code, not links
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
#: inline code spans
CODE_SPAN = re.compile(r"`[^`\n]*`")
#: an external target (scheme or protocol-relative) or a mail address
EXTERNAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")


def markdown_pages(root: Path) -> list[Path]:
    """The README and every Markdown page under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def links(text: str) -> list[str]:
    """The link targets of a Markdown text, outside code blocks and code spans."""
    prose = CODE_SPAN.sub("", FENCE.sub("", text))
    return [m.group(1) for m in LINK.finditer(prose)]


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings (outside code blocks)."""
    prose = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", prose, re.MULTILINE)}


def broken_links(root: Path) -> list[str]:
    """``page: target`` for every relative link that names no file, or an anchor no heading has."""
    broken = []
    for page in markdown_pages(root):
        for target in links(page.read_text(encoding="utf-8")):
            if EXTERNAL.match(target):
                continue
            path_part, _, anchor = target.partition("#")
            resolved = (page.parent / path_part).resolve() if path_part else page
            name = f"{page.relative_to(root)}: {target}"
            missing = not resolved.exists() or not resolved.is_relative_to(root)
            if missing or (anchor and resolved.suffix == ".md" and anchor not in anchors(resolved)):
                broken.append(name)
    return broken


def test_every_relative_link_resolves() -> None:
    assert broken_links(ROOT) == []


def test_the_check_covers_the_readme_and_the_docs() -> None:
    pages = {p.relative_to(ROOT).as_posix() for p in markdown_pages(ROOT)}
    assert {"README.md", "docs/index.md", "docs/results.md", "docs/status.md"} <= pages
    assert len(links((ROOT / "README.md").read_text(encoding="utf-8"))) >= 20


def test_links_in_code_are_not_links() -> None:
    text = 'see [a](a.md) and `[b](b.md)`\n```\n[c](c.md)\n```\n![img](x.png "t")'
    assert links(text) == ["a.md", "x.png"]


def test_headings_give_github_anchors(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("# Results: detection\n## `anonymed deid` options\n```\n# not a heading\n```\n")
    assert anchors(page) == {"results-detection", "anonymed-deid-options"}


@pytest.mark.parametrize(
    ("page_text", "expected"),
    [
        ("[ok](docs/a.md) [web](https://example.org/x) [mail](mailto:a@b.c)", []),
        ("[missing](docs/nowhere.md)", ["README.md: docs/nowhere.md"]),
        ("[bad anchor](docs/a.md#no-such-heading)", ["README.md: docs/a.md#no-such-heading"]),
        ("[good anchor](docs/a.md#a-heading) [own](#top)", []),
        ("[outside](../elsewhere.md)", ["README.md: ../elsewhere.md"]),
    ],
)
def test_a_broken_link_is_found(tmp_path: Path, page_text: str, expected: list[str]) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A heading\n")
    (tmp_path / "README.md").write_text("# Top\n" + page_text + "\n")
    assert broken_links(tmp_path) == expected
