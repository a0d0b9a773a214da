"""Printable handouts made from the rules reference: a one-page cheat-sheet and a glossary.

``docs/team-asia-rules.md`` is parsed into its rules (``- **K1** text`` under a ``## family``
heading); ``cheat_sheet_html()`` lists every rule id with a one-line summary, grouped by family, on
one A4 page; ``glossary_html()`` defines the words of the game, each with the rules where it
appears. The one-line summaries (``cheatsheet.toml``) and the definitions (``glossary.toml``) are
written by hand beside this module; the ids, families, order and policy marks come from the
reference, and ``tests/test_materials.py`` checks the hand-written parts against it.

``python -m ttrlib.lessons.handouts DIR`` writes both pages as HTML files into DIR.
"""

from __future__ import annotations

import html
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ttrlib.lessons.catalog import CatalogError, load_toml

REFERENCE_PATH = Path(__file__).resolve().parents[2] / "docs" / "team-asia-rules.md"
SUMMARIES_PATH = Path(__file__).with_name("cheatsheet.toml")
GLOSSARY_PATH = Path(__file__).with_name("glossary.toml")
_RULE = re.compile(r"- \*\*([A-Z]\d+)\*\* (.*)")


class ReferenceError(CatalogError):
    """The rules reference is missing or not in the expected shape."""


@dataclass(frozen=True)
class Rule:
    id: str  # "K1"
    family: str  # the heading it sits under: "Claiming routes"
    text: str  # one paragraph, markdown as in the reference

    @property
    def has_policy(self) -> bool:
        """True when ttrlib decides part of it where the rulebooks are silent."""
        return "**Policy**" in self.text


@dataclass(frozen=True)
class Term:
    term: str
    definition: str
    rules: tuple[str, ...]
    aliases: tuple[str, ...]  # other forms the reference uses ("double route" for parallel tracks)


def reference_markdown(path: Path = REFERENCE_PATH) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReferenceError(
            f"the rules reference {path} is missing: the handouts are made from it (it ships in "
            "the repository's docs/ folder; run from a clone of the repository)") from None


def parse_rules(markdown: str) -> tuple[Rule, ...]:
    """Every ``- **ID** text`` bullet with its heading; continuation lines are joined."""
    rules: list[Rule] = []
    family = None
    current: list[str] | None = None  # [id, family, text...] of the rule being read

    def finish():
        if current:
            rules.append(Rule(current[0], current[1], " ".join(current[2:])))

    for line in markdown.splitlines():
        match = _RULE.match(line)
        if line.startswith("## "):
            finish()
            family, current = line[3:].strip(), None
        elif match:
            finish()
            if family is None:
                raise ReferenceError(f"rule {match[1]} comes before any '## ' heading")
            current = [match[1], family, match[2].strip()]
        elif current and line.startswith("  ") and line.strip():
            current.append(line.strip())
        else:
            finish()
            current = None
    finish()
    ids = [rule.id for rule in rules]
    if not rules:
        raise ReferenceError("no rule found: expected lines like '- **K1** text'")
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ReferenceError(f"rule ids given twice: {', '.join(duplicates)}")
    return tuple(rules)


def rules(path: Path = REFERENCE_PATH) -> tuple[Rule, ...]:
    return parse_rules(reference_markdown(path))


def summaries(path: Path = SUMMARIES_PATH) -> dict[str, str]:
    """The one-line summary of each rule id, as written in ``cheatsheet.toml``."""
    data = load_toml(path).get("summary")
    if not isinstance(data, dict) or not all(isinstance(v, str) and v for v in data.values()):
        raise CatalogError(f"{path}: expected a [summary] table of rule id = \"one line\"")
    return data


def glossary(path: Path = GLOSSARY_PATH) -> tuple[Term, ...]:
    entries = load_toml(path).get("term")
    if not isinstance(entries, list) or not entries:
        raise CatalogError(f"{path}: no [[term]] tables")
    terms = []
    for n, entry in enumerate(entries):
        where = f"term {n + 1} ({entry.get('term', '?')!r})"
        if not all(isinstance(entry.get(k), str) and entry[k] for k in ("term", "definition")):
            raise CatalogError(f"{path}: {where}: needs a 'term' and a 'definition' text")
        ids, aliases = entry.get("rules", []), entry.get("aliases", [])
        if not (isinstance(ids, list) and all(isinstance(x, str) for x in ids)
                and isinstance(aliases, list) and all(isinstance(x, str) for x in aliases)):
            raise CatalogError(f"{path}: {where}: 'rules' and 'aliases' must be lists of texts")
        terms.append(Term(entry["term"], entry["definition"], tuple(ids), tuple(aliases)))
    return tuple(sorted(terms, key=lambda t: t.term.lower()))


def _inline(text: str) -> str:
    """The reference's markdown (``**bold**``, ``*em*``, backticks) as safe HTML."""
    out = html.escape(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"\*(.+?)\*", r"<em>\1</em>", out)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", out)


# Shared by both pages. The @page and print rules fit the cheat-sheet on one A4 page (the test
# suite prints it through Chromium and counts the pages); on screen the page is a plain card.
_CSS = """
.ttr-handout { font-family: "DejaVu Sans", Arial, sans-serif; color: #111; max-width: 190mm; }
.ttr-handout h1 { font-size: 15pt; margin: 0 0 1mm 0; }
.ttr-handout .ttr-sub { font-size: 8pt; color: #333; margin: 0 0 2mm 0; }
.ttr-handout h2 { font-size: 9.5pt; margin: 2mm 0 0.8mm 0; border-bottom: 0.6pt solid #555;
                  break-after: avoid; }
.ttr-handout table { border-collapse: collapse; width: 100%; }
.ttr-handout td, .ttr-handout th { vertical-align: top; text-align: left; padding: 0.5mm 1mm;
                                   border-bottom: 0.3pt solid #bbb; }
.ttr-handout .ttr-id { font-weight: bold; white-space: nowrap; width: 7mm; }
.ttr-handout .ttr-policy { font-size: 0.85em; font-style: italic; color: #444; }
.ttr-cheat { font-size: 8pt; line-height: 1.22; }
.ttr-cheat .ttr-cols { column-count: 2; column-gap: 6mm; }
.ttr-cheat section { break-inside: avoid; }
.ttr-glossary { font-size: 10pt; line-height: 1.35; }
.ttr-glossary th { font-size: 9pt; border-bottom: 0.8pt solid #555; }
.ttr-glossary .ttr-term { font-weight: bold; width: 32mm; }
.ttr-glossary .ttr-rules { white-space: nowrap; width: 24mm; }
.ttr-glossary tr { break-inside: avoid; }
@page { size: A4; margin: 12mm; }
@media print {
  /* Print only the handout, also from the notebook page (JupyterLab or Voila). */
  body * { visibility: hidden; }
  .ttr-handout, .ttr-handout * { visibility: visible; }
  .ttr-handout { position: absolute; left: 0; top: 0; max-width: none; width: 100%; }
}
"""


def _page(body: str, title: str, *, document: bool) -> str:
    style = f"<style>{_CSS}</style>"
    if not document:
        return style + body
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
            f"{style}</head><body>{body}</body></html>")


def cheat_sheet_html(*, document: bool = False, path: Path = REFERENCE_PATH) -> str:
    """Every rule id with its one-line summary, by family; ``document=True``: a whole HTML page."""
    lines = summaries()
    all_rules = rules(path)
    missing = [r.id for r in all_rules if r.id not in lines]
    if missing:
        raise CatalogError(f"{SUMMARIES_PATH}: no summary for rule(s) {', '.join(missing)}")
    families: dict[str, list[Rule]] = {}
    for rule in all_rules:
        families.setdefault(rule.family, []).append(rule)
    sections = []
    for family, members in families.items():
        rows = "".join(
            f'<tr><td class="ttr-id">{r.id}</td><td>{_inline(lines[r.id])}'
            + (' <span class="ttr-policy">(policy)</span>' if r.has_policy else "")
            + "</td></tr>" for r in members)
        sections.append(f"<section><h2>{html.escape(family)}</h2><table>{rows}</table></section>")
    body = (
        '<div class="ttr-handout ttr-cheat" role="document" aria-label="Rules cheat-sheet">'
        "<h1>Ticket to Ride: Team Asia, the team rules on one page</h1>"
        '<p class="ttr-sub">Every rule ttrlib enforces, by its id; the lessons cite these ids. '
        "<em>(policy)</em>: the rulebook is silent on part of it and ttrlib decides (see the full "
        "rules reference, docs/team-asia-rules.md).</p>"
        f'<div class="ttr-cols">{"".join(sections)}</div></div>')
    return _page(body, "Team Asia rules cheat-sheet", document=document)


def glossary_html(*, document: bool = False, path: Path = REFERENCE_PATH) -> str:
    """The words of the game, with definitions and the rule ids where each appears."""
    known = {r.id for r in rules(path)}
    rows = []
    for term in glossary():
        unknown = [i for i in term.rules if i not in known]
        if unknown:
            raise CatalogError(f"{GLOSSARY_PATH}: {term.term!r} cites unknown rule(s) "
                               f"{', '.join(unknown)}")
        rows.append(f'<tr><td class="ttr-term">{html.escape(term.term)}</td>'
                    f"<td>{_inline(term.definition)}</td>"
                    f'<td class="ttr-rules">{", ".join(term.rules) or "odds paragraph"}</td></tr>')
    body = (
        '<div class="ttr-handout ttr-glossary" role="document" aria-label="Glossary">'
        "<h1>Ticket to Ride: Team Asia, the words of the game</h1>"
        '<p class="ttr-sub">The words the lessons and the rules reference use, in alphabetical '
        "order, with the rules where each one appears.</p>"
        "<table><thead><tr><th>word</th><th>what it means</th><th>rules</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>")
    return _page(body, "Team Asia glossary", document=document)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m ttrlib.lessons.handouts DIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    (out / "cheat-sheet.html").write_text(cheat_sheet_html(document=True), encoding="utf-8")
    (out / "glossary.html").write_text(glossary_html(document=True), encoding="utf-8")
    print(f"wrote {out / 'cheat-sheet.html'} and {out / 'glossary.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
