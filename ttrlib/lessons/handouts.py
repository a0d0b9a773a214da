"""The teacher's pages: a one-page rules cheat-sheet, a glossary and the lesson guides, as HTML.

``docs/team-asia-rules.md`` is parsed into its rules (``- **K1** text`` under a ``## family``
heading); ``cheat_sheet_html()`` lists every rule id with a one-line summary, grouped by family, on
one A4 page; ``glossary_html()`` defines the words of the game, each with the rules where it
appears. The one-line summaries (``cheatsheet.toml``) and the definitions (``glossary.toml``) are
written by hand beside this module; the ids, families, order and policy marks come from the
reference, and ``tests/test_materials.py`` checks the hand-written parts against it.

``lessons_html()`` and ``guide_html(id)`` render the lesson catalogue and the teacher's guides
(``catalog.toml``, ``guides.toml``) for ``notebooks/teachers.ipynb``.

``python -m ttrlib.lessons.handouts DIR`` writes both pages as HTML files into DIR.
"""

from __future__ import annotations

import html
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ttrlib.lessons import catalog
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


# One style for every page. The font sizes and the @page margins fit the cheat-sheet on one A4 page
# (the test suite prints it through Chromium and counts the pages). Every selector starts with two
# classes ("div.ttr-page.ttr-page") to outrank JupyterLab's and Voila's own output style
# (":not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td": right aligned, striped, themed colours);
# a white card, so that it reads the same in a dark theme.
_CSS = """
div.ttr-page.ttr-page { font-family: "DejaVu Sans", Arial, sans-serif; color: #111;
  background: #fff;
               max-width: 190mm; padding: 2mm; box-sizing: border-box; text-align: left; }
div.ttr-page.ttr-page table { border-collapse: collapse; width: 100%; margin: 0 0 2mm 0;
  color: #111;
                     font-size: 1em; table-layout: auto; }
div.ttr-page.ttr-page table td, div.ttr-page.ttr-page table th {
  vertical-align: top; text-align: left; line-height: inherit; padding: 0.6mm 1mm;
  border: none; border-bottom: 0.3pt solid #bbb; }
div.ttr-page.ttr-page table tbody tr:nth-child(n), div.ttr-page.ttr-page table tbody tr:hover {
  background: transparent; }
div.ttr-page.ttr-page table th { font-weight: bold; border-bottom: 0.8pt solid #555; }
div.ttr-page.ttr-page h1 { font-size: 15pt; font-weight: bold; margin: 0 0 1mm 0; padding: 0;
  color: #111; }
div.ttr-page.ttr-page h2 { font-size: 10.5pt; font-weight: bold; margin: 2.5mm 0 0.8mm 0;
  padding: 0; color: #111;
                  border-bottom: 0.6pt solid #555; break-after: avoid; }
div.ttr-page.ttr-page h3 { font-size: 11.5pt; font-weight: bold; margin: 3mm 0 1mm 0; padding: 0;
  color: #111; }
div.ttr-page.ttr-page p.ttr-sub { font-size: 8.5pt; color: #333; margin: 0 0 2mm 0; }
div.ttr-page.ttr-page table td.ttr-id { font-weight: bold; white-space: nowrap; width: 8mm; }
div.ttr-page.ttr-page .ttr-policy { font-size: 0.85em; font-style: italic; color: #444; }
div.ttr-page.ttr-cheat { font-size: 8.6pt; line-height: 1.22; }
div.ttr-page.ttr-cheat .ttr-cols { column-count: 2; column-gap: 6mm; }
div.ttr-page.ttr-cheat section { break-inside: avoid; }
div.ttr-page.ttr-cheat h2:first-child { margin-top: 0; }
div.ttr-page.ttr-cheat p.ttr-odds { margin-top: 2.5mm; }
div.ttr-page.ttr-glossary { font-size: 10pt; line-height: 1.35; }
div.ttr-page.ttr-glossary table { table-layout: fixed; }
div.ttr-page.ttr-glossary table th { font-size: 9pt; }
div.ttr-page.ttr-glossary table td.ttr-term { font-weight: bold; }
div.ttr-page.ttr-glossary table tr { break-inside: avoid; }
div.ttr-page.ttr-guide { font-size: 11pt; line-height: 1.4; }
div.ttr-page.ttr-guide table td, div.ttr-page.ttr-guide table th { padding: 1mm 2mm;
  border-bottom-width: 0.5pt; }
div.ttr-page.ttr-guide table th { border-bottom-width: 1pt; }
div.ttr-page.ttr-guide table .ttr-num { white-space: nowrap; text-align: right; }
div.ttr-page.ttr-guide table tfoot td { font-weight: bold; border-bottom: none; }
div.ttr-page.ttr-guide .ttr-answer { color: #333; }
div.ttr-page.ttr-guide li { margin-bottom: 1mm; }
@page { size: A4; margin: 12mm; }
"""
# Only on the two handouts: printing their notebook page (JupyterLab or Voila) prints the sheet
# alone. Everything that neither holds the sheet nor sits in it is left out, and the boxes that
# hold it lose their scrolling and fixed heights, so that the printed flow is the sheet's own.
_PRINT_ALONE_CSS = """
@media print {
  body *:not(:has(.ttr-handout)):not(.ttr-handout):not(.ttr-handout *) { display: none !important; }
  html:has(.ttr-handout), body:has(.ttr-handout), body *:has(.ttr-handout) {
    position: static !important; overflow: visible !important; height: auto !important;
    min-height: 0 !important; margin: 0 !important; padding: 0 !important;
    border: none !important; box-shadow: none !important; background: #fff !important;
    contain: none !important; display: block !important; width: auto !important;
    max-width: none !important; }
  div.ttr-page.ttr-page { max-width: none; width: 100%; padding: 0; }
}
"""


def _page(body: str, title: str, *, document: bool, print_alone: bool = True) -> str:
    style = f"<style>{_CSS}{_PRINT_ALONE_CSS if print_alone else ''}</style>"
    if not document:
        return style + body
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
            f"{style}</head><body>{body}</body></html>")


def cheat_sheet_html(*, document: bool = False, path: Path = REFERENCE_PATH) -> str:
    """Every rule id with its one-line summary, by family; ``document=True``: a whole HTML page."""
    lines = summaries()
    markdown = reference_markdown(path)
    all_rules = parse_rules(markdown)
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
        '<div class="ttr-page ttr-handout ttr-cheat" role="document" '
        'aria-label="Rules cheat-sheet">'
        "<h1>Ticket to Ride: Team Asia, the team rules on one page</h1>"
        '<p class="ttr-sub">Every rule ttrlib enforces, by its id; the lessons cite these ids. '
        "<em>(policy)</em>: the rulebook is silent on part of it and ttrlib decides (see the full "
        "rules reference, docs/team-asia-rules.md).</p>"
        f'<div class="ttr-cols">{"".join(sections)}</div>{_odds_footer(markdown)}</div>')
    return _page(body, "Team Asia rules cheat-sheet", document=document)


def _odds_footer(markdown: str) -> str:
    """The reference's fresh-deck tunnel odds, word for word, or nothing if it has none."""
    match = re.search(r"Fresh-deck check figures(.*?)(?:\n\s*\n|\Z)", markdown, re.S)
    if not match:
        return ""
    return (f'<p class="ttr-sub ttr-odds"><strong>Tunnel odds, fresh deck</strong> '
            f'{_inline(" ".join(match[1].split()))}</p>')


def glossary_html(*, document: bool = False, path: Path = REFERENCE_PATH) -> str:
    """The words of the game, with definitions and the rule ids where each appears."""
    known = {r.id for r in rules(path)}
    rows = []
    for term in glossary():
        unknown = [i for i in term.rules if i not in known]
        if unknown:
            raise CatalogError(f"{GLOSSARY_PATH}: {term.term!r} cites unknown rule(s) "
                               f"{', '.join(unknown)}")
        where = ", ".join(term.rules) or "tunnel odds paragraph"
        rows.append(f'<tr><td class="ttr-term">{html.escape(term.term)}</td>'
                    f"<td>{_inline(term.definition)}</td><td>{where}</td></tr>")
    body = (
        '<div class="ttr-page ttr-handout ttr-glossary" role="document" aria-label="Glossary">'
        "<h1>Ticket to Ride: Team Asia, the words of the game</h1>"
        '<p class="ttr-sub">The words the lessons and the rules reference use, in alphabetical '
        "order, with the rules where each one appears.</p>"
        "<table><colgroup><col style=\"width: 34mm\"><col><col style=\"width: 26mm\">"
        "</colgroup><thead><tr><th>word</th><th>what it means</th><th>rules</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>")
    return _page(body, "Team Asia glossary", document=document)


def _rule_list(ids) -> str:
    return ", ".join(ids)


def lessons_html() -> str:
    """The lesson catalogue as a table: each lesson linked, its rules and its time alone."""
    rows = "".join(
        f'<tr><td><a href="{x.file}">{html.escape(x.name)}</a></td>'
        f"<td>{html.escape(x.goals[0])}</td><td>{_rule_list(x.rules)}</td>"
        f'<td class="ttr-num">{x.minutes} min</td></tr>' for x in catalog.lessons())
    total = catalog.total_minutes()
    hours, minutes = divmod(total, 60)
    body = (
        '<div class="ttr-page ttr-guide"><table><thead><tr><th>lesson</th><th>first goal</th>'
        '<th>rules taught</th><th class="ttr-num">a learner alone</th></tr></thead>'
        f"<tbody>{rows}</tbody><tfoot><tr><td colspan=\"3\">all the lessons</td>"
        f'<td class="ttr-num">{total} min ({hours} h {minutes:02d})</td></tr></tfoot>'
        "</table></div>")
    return _page(body, "The lessons", document=False, print_alone=False)


def guide_html(lesson_id: str) -> str:
    """One lesson's guide: goals, the 45-minute plan, questions to ask, misconceptions."""
    entry, guide = catalog.lesson(lesson_id), catalog.guide(lesson_id)
    goals = "".join(f"<li>{html.escape(g)}</li>" for g in entry.goals)
    plan_rows, start = [], 0
    for step in guide.plan:
        plan_rows.append(f'<tr><td class="ttr-num">{start}-{start + step.minutes}</td>'
                         f'<td class="ttr-num">{step.minutes} min</td>'
                         f"<td>{html.escape(step.activity)}</td></tr>")
        start += step.minutes
    questions = "".join(
        f"<li>{html.escape(q.ask)}<br><span class=\"ttr-answer\"><strong>Answer:</strong> "
        f"{html.escape(q.answer)}</span></li>" for q in guide.questions)  # cites its rules
    wrong = "".join(
        f"<tr><td>{html.escape(m.belief)}</td><td>{html.escape(m.truth)}</td>"
        f"<td>{_rule_list(m.rules)}</td></tr>" for m in guide.misconceptions)
    uses = f" (and uses {_rule_list(entry.uses)})" if entry.uses else ""
    body = (
        f'<div class="ttr-page ttr-guide" aria-label="Teacher\'s guide to lesson {entry.id}">'
        f"<p><strong>Rules taught:</strong> {_rule_list(entry.rules)}{uses}. "
        f"<strong>A learner alone:</strong> about {entry.minutes} minutes.</p>"
        f"<h3>Goals: what the learners will be able to do</h3><ul>{goals}</ul>"
        "<h3>A 45-minute class</h3><table><thead><tr><th class=\"ttr-num\">minute</th>"
        "<th class=\"ttr-num\">time</th><th>what happens</th></tr></thead>"
        f"<tbody>{''.join(plan_rows)}</tbody><tfoot><tr><td></td>"
        f'<td class="ttr-num">{start} min</td><td>in all</td></tr></tfoot></table>'
        f"<h3>What to ask the class</h3><ol>{questions}</ol>"
        "<h3>What players get wrong</h3><table><thead><tr><th>players think</th>"
        f"<th>the rules say</th><th>rule</th></tr></thead><tbody>{wrong}</tbody></table></div>")
    return _page(body, f"Guide to lesson {entry.id}", document=False, print_alone=False)


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
