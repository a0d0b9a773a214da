"""The teacher's materials: the lesson catalogue, the guides, the cheat-sheet and the glossary.

* the catalogue (``ttrlib/lessons/catalog.toml``) lists the lesson notebooks that exist, with rule
  ids from the rules reference, and every rule is taught by some lesson; README's lesson table and
  every lesson notebook that states a time agree with it (one set of lesson times);
* a bad catalogue or guide file raises ``CatalogError`` naming the file and the field;
* every guide's 45-minute plan adds up to 45 (summed here, not by the code), cites real rule ids;
* the cheat-sheet has one summary per rule of the reference, the glossary's terms appear in it;
* the teacher's page links to files that exist; the three pages run on a fresh kernel and show no
  raw Python output;
* (browser) the handouts printed to A4 PDF by Chromium: the cheat-sheet is one page; PNGs of
  every page go to ``test-artifacts/`` to be looked at.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ttrlib.lessons import catalog, handouts
from ttrlib.lessons.catalog import CatalogError

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
REFERENCE = ROOT / "docs" / "team-asia-rules.md"
# The rule ids of docs/team-asia-rules.md, counted by hand from its headings (a rule added to the
# reference must be added here and to a lesson).
HAND_RULE_IDS = ({f"C{i}" for i in range(1, 8)} | {f"D{i}" for i in range(1, 5)}
                 | {f"K{i}" for i in range(1, 5)} | {f"T{i}" for i in range(1, 5)} | {"I1"}
                 | {f"U{i}" for i in range(1, 8)} | {f"E{i}" for i in range(1, 7)})


def _reference_ids() -> set[str]:
    return {rule.id for rule in handouts.rules(REFERENCE)}


def _markdown_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def _time_tables(text: str) -> list[dict[str, str]]:
    """Rows of every markdown table whose header has a 'lesson' and a 'time' column."""
    rows, header = [], None
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith(
            "|") else None
        if cells is None:
            header = None
        elif header is None:
            header = [c.lower() for c in cells]
        elif not set("".join(cells)) <= set("-: "):
            if "lesson" in header and "time" in header:
                rows.append(dict(zip(header, cells)))
    return rows


def _lesson_id(cell: str) -> str:
    match = re.search(r"\b(0\d)\b", cell)
    assert match, f"a lesson table row without a lesson number: {cell!r}"
    return match[1]


# --- the catalogue --------------------------------------------------------------------------

def test_reference_parser_finds_the_hand_counted_rule_ids():
    assert _reference_ids() == HAND_RULE_IDS
    k1 = next(r for r in handouts.rules(REFERENCE) if r.id == "K1")
    assert k1.family == "Claiming routes"
    assert k1.text.endswith("and never cards from the teammate's hand.")  # continuation joined


def test_catalogue_lists_the_lesson_notebooks_in_order():
    on_disk = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
    assert [x.file for x in catalog.lessons()] == on_disk
    assert [x.id for x in catalog.lessons()] == ["00", "01", "02", "03", "04", "05", "06", "07",
                                                 "08"]
    assert catalog.lesson("04").title == "Tunnel claims"
    with pytest.raises(KeyError, match="09"):
        catalog.lesson("09")


def test_total_minutes_is_the_sum_of_the_lessons():
    # Written out from catalog.toml by hand: 20 + 30 + 25 + 25 + 30 + 40 + 40 + 30 + 45.
    assert [x.minutes for x in catalog.lessons()] == [20, 30, 25, 25, 30, 40, 40, 30, 45]
    assert catalog.total_minutes() == 285


def test_catalogue_rules_exist_and_every_rule_is_taught():
    known = _reference_ids()
    for entry in catalog.lessons():
        assert set(entry.rules + entry.uses) <= known, entry.id
        assert entry.goals and all(g[0].islower() for g in entry.goals), entry.id
    taught = {rule for entry in catalog.lessons() for rule in entry.rules}
    assert taught == known


def test_catalogue_rules_match_each_lessons_rules_line():
    """'**Rules in this lesson:** K1, K2 (with ...)' in each lesson names the catalogue's rules."""
    for entry in catalog.lessons():
        text = "\n".join(_markdown_cells(NOTEBOOKS / entry.file))
        match = re.search(r"\*\*Rules in this lesson:?\*\*:?\s*([^(\n]*)", text)
        assert match, f"{entry.file} has no 'Rules in this lesson' line"
        assert set(re.findall(r"[A-Z]\d+", match[1])) == set(entry.rules), entry.file


def _expand(ids: str) -> set[str]:
    """'C1-C5, C7, I1' -> {'C1', ..., 'C5', 'C7', 'I1'}."""
    out = set()
    for a, b in re.findall(r"([A-Z]\d+)(?:\s*[-–]\s*([A-Z]\d+))?", ids):
        out |= {f"{a[0]}{i}" for i in range(int(a[1:]), int((b or a)[1:]) + 1)}
    return out


def test_readme_lesson_table_agrees_with_the_catalogue():
    rows = _time_tables((ROOT / "README.md").read_text(encoding="utf-8"))
    assert rows, "README has no '| lesson | ... | time |' table"
    by_id = {_lesson_id(row["lesson"]): row for row in rows}
    assert sorted(by_id) == [x.id for x in catalog.lessons()]
    for entry in catalog.lessons():
        row = by_id[entry.id]
        assert row["time"] == f"{entry.minutes} min", (entry.id, row["time"])
        assert entry.name in row["lesson"], (entry.id, row["lesson"])
        assert _expand(row["rules"]) == set(entry.rules), (entry.id, row["rules"])


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_no_notebook_types_a_lesson_time_by_hand(path):
    # Lesson times live in the catalogue only; lesson 00 builds its table from it.
    prose = "\n".join(_markdown_cells(path))
    assert not re.search(r"\b\d+\s*min(?:utes?)?\b", prose), path.name


def test_lesson_00_builds_its_lesson_table_from_the_catalogue():
    code = "\n".join("".join(c["source"]) for c in
                     json.loads((NOTEBOOKS / "00-start-here.ipynb").read_text())["cells"]
                     if c["cell_type"] == "code")
    assert "lessons_table" in code


@pytest.mark.parametrize("bad, message", [
    ("[[lesson]]\nid = '00'\nfile = '00-a.ipynb'\ntitle = 'A'\nminutes = 0\nrules = ['C1']\n"
     "goals = ['x']\n", "minutes must be positive"),
    ("[[lesson]]\nid = '00'\nfile = '00-a.ipynb'\ntitle = 'A'\nminutes = 5\nrules = ['see C1']\n"
     "goals = ['x']\n", "not a rule id"),
    ("[[lesson]]\nid = '01'\nfile = '01-a.ipynb'\ntitle = 'A'\nminutes = 5\nrules = ['C1']\n"
     "goals = ['x']\n", "expected id '00'"),
    ("[[lesson]]\nid = '00'\nfile = '00-a.ipynb'\nminutes = 5\nrules = ['C1']\ngoals = ['x']\n",
     "missing field 'title'"),
    ("[[lesson]\nid = '00'\n", "not valid TOML"),
])
def test_a_bad_catalogue_is_refused_with_the_file_and_field(tmp_path, bad, message):
    path = tmp_path / "catalog.toml"
    path.write_text(bad)
    with pytest.raises(CatalogError, match=message) as info:
        catalog.read_catalog(path)
    assert str(path) in str(info.value)


def test_a_missing_reference_is_a_clear_error(tmp_path):
    with pytest.raises(handouts.ReferenceError, match="rules reference .* is missing"):
        handouts.rules(tmp_path / "nowhere.md")


# --- the teacher's guides -------------------------------------------------------------------

def test_every_lesson_has_a_guide_whose_plan_fills_45_minutes():
    for entry in catalog.lessons():
        guide = catalog.guide(entry.id)
        assert sum(step.minutes for step in guide.plan) == 45, entry.id
        assert 3 <= len(guide.questions) <= 5, entry.id
        assert guide.misconceptions, entry.id


def test_guides_cite_only_rules_of_the_reference():
    known = _reference_ids()
    for entry in catalog.lessons():
        guide = catalog.guide(entry.id)
        cited = [r for item in guide.questions + guide.misconceptions for r in item.rules]
        assert cited and set(cited) <= known, entry.id
        assert all(item.rules for item in guide.misconceptions), entry.id
        for question in guide.questions:  # the page shows the answer's text, so it names them
            assert all(f"{r}" in question.answer for r in question.rules), question.ask


def test_the_misconceptions_the_issue_names_are_in_the_guides():
    """Issue 9 names these; each must be answered by the rule that settles it."""
    wanted = {  # (lesson, rule, words in the belief), written from the issue
        ("04", "U2", "extra cost by themselves"), ("04", "U2", "revealed locomotive"),
        ("03", "K1", "teammate's cards"), ("01", "D3", "second card may be a face-up locomotive"),
        ("02", "I1", "see my teammate's tickets"),
    }
    for lesson_id, rule, words in wanted:
        guide = catalog.guide(lesson_id)
        assert any(words in m.belief and rule in m.rules for m in guide.misconceptions), words


_GUIDE = """[[guide]]
lesson = "00"
plan = [{ minutes = 40, activity = "a" }, { minutes = 4, activity = "b" }]
questions = [{ ask = "q", answer = "a", rules = ["C1"] },
             { ask = "q", answer = "a", rules = ["C1"] },
             { ask = "q", answer = "a", rules = ["C1"] }]
misconceptions = [{ belief = "b", truth = "t", rules = ["C1"] }]
"""


@pytest.mark.parametrize("change, message", [
    ((), "take 44 minutes, not 45"),
    (("questions = [", "questions = [{ ask = 'q', answer = 'a', rules = ['C1'] }, "
      "{ ask = 'q', answer = 'a', rules = ['C1'] }, { ask = 'q', answer = 'a', rules = ['C1'] }, "),
     "6 questions, not 3 to 5"),
    (('lesson = "00"', 'lesson = "09"'), "no such lesson"),
])
def test_a_bad_guide_is_refused(tmp_path, change, message):
    text = _GUIDE.replace("minutes = 4,", "minutes = 5,") if change else _GUIDE
    if change:
        text = text.replace(*change)
    path = tmp_path / "guides.toml"
    path.write_text(text)
    only_00 = catalog.lessons()[:1]
    with pytest.raises(CatalogError, match=message):
        catalog.read_guides(path, only_00)


def test_a_good_guide_file_reads(tmp_path):
    path = tmp_path / "guides.toml"
    path.write_text(_GUIDE.replace("minutes = 4,", "minutes = 5,"))
    guide = catalog.read_guides(path, catalog.lessons()[:1])["00"]
    assert [step.minutes for step in guide.plan] == [40, 5]


def test_guide_page_shows_the_plan_with_running_times():
    page = handouts.guide_html("01")
    plan = catalog.guide("01").plan
    assert f"0-{plan[0].minutes}</td>" in page
    assert ">45 min</td><td>in all" in page
    for goal in catalog.lesson("01").goals:
        assert goal in page.replace("&#x27;", "'")


# --- the cheat-sheet and the glossary -------------------------------------------------------

def _numbers(text: str) -> set[str]:
    return set(re.findall(r"(?<![A-Za-z])\d+", text))


def test_cheat_sheet_has_one_summary_per_rule_and_its_numbers_are_the_rules():
    lines = handouts.summaries()
    by_id = {rule.id: rule for rule in handouts.rules(REFERENCE)}
    assert set(lines) == set(by_id)
    for rule_id, line in lines.items():
        assert _numbers(line) <= _numbers(by_id[rule_id].text), rule_id
    sheet = handouts.cheat_sheet_html(path=REFERENCE)
    for rule_id in by_id:
        assert f'<td class="ttr-id">{rule_id}</td>' in sheet
    assert sheet.count("(policy)</span>") == sum(r.has_policy for r in by_id.values())
    assert "0.3342" in sheet  # the fresh-deck odds, quoted from the reference


def test_glossary_terms_appear_in_the_reference_and_in_the_rules_they_cite():
    reference = handouts.reference_markdown(REFERENCE)
    by_id = {rule.id: rule for rule in handouts.rules(REFERENCE)}
    terms = handouts.glossary()
    named = {t.term for t in terms}
    for needed in ("cardholder", "locomotive", "tunnel", "unseen card", "face-up row", "draw pile",
                   "discard pile", "ticket cardholder", "seat", "team", "parallel tracks",
                   "longest path"):
        assert needed in named, needed
    for term in terms:
        forms = re.compile("|".join(r"\b" + re.escape(f) for f in (term.term, *term.aliases)),
                           re.IGNORECASE)
        assert forms.search(reference), term.term
        for rule_id in term.rules:
            assert rule_id in by_id, (term.term, rule_id)
            assert forms.search(by_id[rule_id].text), (term.term, rule_id)
    page = handouts.glossary_html(path=REFERENCE)
    assert page.count('<td class="ttr-term">') == len(terms)


def test_a_seat_named_like_a_rule_is_called_a_seat_in_the_handouts():
    """Seats C1 and C2 (6 players, C2) share their names with rules C1 and C2: in the handouts'
    prose, where rule ids stand bare ("(C5 checked)"), such a seat name follows the word
    "seat(s)" (a list of seats counts: "seats C1, C2"), and the id column and the glossary's
    rules column hold rule ids only. Issue 21, item 6."""
    from ttrlib.seats import seat_name

    clashing = {seat_name(s) for s in range(6)} & _reference_ids()
    assert clashing == {"C1", "C2"}  # by hand: team C's two seats
    listed = r"seats?\s+(?:[A-Z]\d,?\s+(?:and\s+)?)*"  # "seats A1, A2 and C1"
    prose = list(handouts.summaries().values()) + [t.definition for t in handouts.glossary()]
    checked = 0
    for text in prose:
        for m in re.finditer(r"\b(?:" + "|".join(sorted(clashing)) + r")\b", text):
            before = text[:m.start()]
            as_rule = re.search(r"\(([A-Z]\d(?:, )?)*$|rules?\s+$", before)
            as_seat = re.search(listed + "$", before)
            assert as_seat or as_rule, f"bare {m.group(0)} in: {text}"
            checked += bool(as_seat)
    assert checked >= 4  # the cheat-sheet's C2 line and the glossary's "seat" name both seats


def test_handouts_refuse_a_reference_without_a_summary(tmp_path):
    extra = tmp_path / "rules.md"
    extra.write_text(REFERENCE.read_text() + "\n## More\n- **Z9** A rule nobody summarised.\n")
    with pytest.raises(CatalogError, match="no summary for rule.*Z9"):
        handouts.cheat_sheet_html(path=extra)


# --- the three pages ------------------------------------------------------------------------

PAGES = ("teachers.ipynb", "cheat-sheet.ipynb", "glossary.ipynb")


def test_teachers_page_links_every_lesson_and_the_handouts():
    text = "\n".join(_markdown_cells(NOTEBOOKS / "teachers.ipynb"))
    targets = set(re.findall(r"\]\(([^)#?]+)\)", text))
    expected = {x.file for x in catalog.lessons()} | {"cheat-sheet.ipynb", "glossary.ipynb",
                                                     "solutions.ipynb"}
    assert expected <= targets
    headings = re.findall(r"^## (\d\d .*)$", text, re.MULTILINE)
    assert headings == [x.name for x in catalog.lessons()]


def test_the_teachers_page_says_how_to_run_the_room():
    """Issue 21, item 7: the room, not only the lessons. The section names the set-up, the class
    pool, seeds, a broken page and the load; every make variable it names is one the Makefile
    reads; it says what the class server is and where the teacher logs in; no learner's address
    shows the answers; the README says how to change the port with the same variable."""
    cells = _markdown_cells(NOTEBOOKS / "teachers.ipynb")
    room = next(c for c in cells if c.startswith("## Running the room"))
    for topic in ("**Set-up.**", "**The class pool.**", "**Seeds: one game for the class.**",
                  "**When a learner's page breaks.**", "**Load.**", "**The class server.**"):
        assert topic in room, topic
    makefile = (ROOT / "Makefile").read_text()
    named = set(re.findall(r"\b([A-Z][A-Z_]+)=", room))
    assert {"VOILA_PORT", "CLASS_LESSON", "CLASS_SIZE", "VOILA_ARGS", "CLASS_IP"} <= named
    for var in named:
        assert re.search(rf"^{var} \?=|\$\({var}\)", makefile, re.M), var
    for what in ("?seed=7", "Reload the page", "Stop", "reload this page"):
        assert what in room, what
    assert "?teacher=1" not in room  # it shows nothing since the teacher's room (issue 20)
    server = room.split("**The class server.**")[1]
    assert "CLASS_PORT" in server and "/teacher?token=" in server and "Tables" in server
    # the lost-widget message quoted is the one the classroom page shows
    template = (ROOT / "classroom" / "nbconvert" / "templates" / "classroom" /
                "index.html.j2").read_text()
    assert "This part of the lesson was lost on its way to your page" in template
    assert "This part of the lesson was lost on its way to your page" in " ".join(room.split())
    readme = (ROOT / "README.md").read_text()
    assert "make classroom VOILA_PORT=" in readme and "Running the room" in readme


@pytest.mark.parametrize("name", PAGES)
def test_every_relative_link_on_the_pages_exists(name):
    text = "\n".join(_markdown_cells(NOTEBOOKS / name))
    for target in re.findall(r"\]\(([^)#?]+)\)", text):
        assert "://" not in target and not target.startswith("/"), (name, target)
        assert (NOTEBOOKS / target).is_file(), (name, target)


@pytest.mark.notebook
@pytest.mark.parametrize("name", PAGES)
def test_page_runs_on_a_fresh_kernel_and_shows_only_html(name):
    import nbclient
    import nbformat

    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "stored clean"
    # no clock on a cell (a loaded machine is slow, not wrong): see test_notebooks.RUN_LIMITS
    nbclient.NotebookClient(nb, timeout=None, startup_timeout=600, iopub_timeout=120,
                            raise_on_iopub_timeout=True, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert outputs
    for out in outputs:  # no stream, no repr, no error: only the pages' HTML
        assert out.output_type == "display_data" and "text/html" in out.data, out
    assert "<table" in outputs[-1].data["text/html"]


# --- printed, in a real browser -------------------------------------------------------------
# Chromium prints each handout to an A4 PDF (its own print engine, as a teacher's browser would);
# pdftoppm (Debian's poppler-utils) turns every page into a PNG under test-artifacts/handouts/.

def _need_browser(*tools: str):
    import lab_harness as h

    h.need_browser(*tools)


def _pdf_pages_as_png(pdf: Path) -> list[Path]:
    import subprocess

    for old in pdf.parent.glob(f"{pdf.stem}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "110", str(pdf), str(pdf.with_suffix(""))],
                   check=True, timeout=120)
    return sorted(pdf.parent.glob(f"{pdf.stem}-*.png"))


def _ink(png: Path) -> float:
    """The share of the page's pixels that are not near white (0 for a blank page)."""
    from matplotlib.image import imread

    pixels = imread(png)[..., :3]
    return float((pixels.mean(axis=-1) < 0.8).mean())


@pytest.mark.browser
def test_handouts_print_on_a4_and_the_cheat_sheet_on_one_page():
    _need_browser("pdftoppm")
    import lab_harness as h

    out = h.ARTIFACTS / "handouts"
    out.mkdir(parents=True, exist_ok=True)
    pages = {}
    with h.browser() as browser:
        page = browser.new_page()
        for name, make in (("cheat-sheet", handouts.cheat_sheet_html),
                           ("glossary", handouts.glossary_html)):
            source = out / f"{name}.html"
            source.write_text(make(document=True), encoding="utf-8")
            page.goto(source.as_uri())
            page.pdf(path=str(out / f"{name}.pdf"), format="A4", prefer_css_page_size=True)
            pages[name] = _pdf_pages_as_png(out / f"{name}.pdf")
    assert len(pages["cheat-sheet"]) == 1, "the cheat-sheet must fit one A4 page"
    assert 1 <= len(pages["glossary"]) <= 3
    for png in pages["cheat-sheet"] + pages["glossary"]:
        assert _ink(png) > 0.02, f"{png} looks blank"


@pytest.mark.browser
def test_teachers_page_in_voila_links_to_lessons_and_prints_the_cheat_sheet_alone(tmp_path):
    """As ``make classroom`` serves them (the notebooks folder): the relative links of the
    teacher's page lead to /voila/render/<lesson>, a click opens lesson 01, and the
    cheat-sheet page printed from the browser is the one-page sheet without the page around it."""
    _need_browser("pdftoppm")
    import lab_harness as h

    out = h.ARTIFACTS / "handouts"
    out.mkdir(parents=True, exist_ok=True)
    with h.browser() as browser, h.server("voila", tmp_path, notebook="notebooks") as (base, tok):
        context = browser.new_context(viewport={"width": 1280, "height": 1200})
        try:
            page = context.new_page()
            page.set_default_timeout(60_000)
            log = tmp_path / "voila.log"  # waits for the condition while Voila works
            h.open_page(page, f"{base}/voila/render/teachers.ipynb?token={tok}")
            h.wait_until(page, "(n) => document.querySelectorAll('.ttr-guide').length >= n",
                         "the teacher's page", arg=len(catalog.lessons()) + 1, log=log)
            assert page.locator(".ttr-guide table").count() >= 2 * len(catalog.lessons()) + 1
            assert not page.locator(".jp-OutputArea-output", has_text="Traceback").count()
            page.screenshot(path=str(out / "voila-teachers-top.png"))
            guide_04 = page.locator(".ttr-guide").nth(1 + 4)  # after the overview table
            guide_04.scroll_into_view_if_needed()
            guide_04.screenshot(path=str(out / "voila-teachers-guide-04.png"))
            hrefs = page.eval_on_selector_all(
                ".jp-RenderedMarkdown a", "els => els.map(a => a.href.split('?')[0])")
            for entry in catalog.lessons():
                assert f"{base}/voila/render/{entry.file}" in hrefs, entry.file
            for other in ("cheat-sheet.ipynb", "glossary.ipynb", "solutions.ipynb"):
                assert f"{base}/voila/render/{other}" in hrefs, other
            page.locator(".jp-RenderedMarkdown a[href='01-card-splits.ipynb']").first.click()
            page.wait_for_url(re.compile(r"/voila/render/01-card-splits\.ipynb"))
            h.wait_until(page, "() => document.body.innerText.includes("
                         "'Card splits: two cards, two places')", "lesson 01", log=log)

            h.open_page(page, f"{base}/voila/render/cheat-sheet.ipynb?token={tok}")
            h.wait_until(page, "() => !!document.querySelector('.ttr-cheat')", "the cheat-sheet",
                         log=log)
            page.screenshot(path=str(out / "voila-cheat-sheet.png"), full_page=True)
            page.pdf(path=str(out / "voila-cheat-sheet.pdf"), format="A4",
                     prefer_css_page_size=True)
        finally:
            context.close()
    printed = _pdf_pages_as_png(out / "voila-cheat-sheet.pdf")
    assert len(printed) == 1, f"printing the Voila page gives {len(printed)} pages"
    assert _ink(printed[0]) > 0.02, "the printed Voila page is blank"
    # the same sheet as the standalone one: within a few percent of its ink
    alone = _ink(out / "cheat-sheet-1.png") if (out / "cheat-sheet-1.png").exists() else None
    if alone is not None:
        assert abs(_ink(printed[0]) - alone) < 0.3 * alone


@pytest.mark.browser
def test_teachers_page_links_open_the_lessons_in_jupyterlab(tmp_path):
    """In JupyterLab a click on a lesson link of the teacher's page opens that notebook, and
    the guides (run from the Run menu) show their tables; the browser's Print of the cheat-sheet
    page is one page with the sheet alone."""
    _need_browser("pdftoppm")
    import lab_harness as h

    out = h.ARTIFACTS / "handouts"
    out.mkdir(parents=True, exist_ok=True)
    with h.browser() as browser, h.server("lab", tmp_path) as (base, token):
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        try:
            page = context.new_page()
            page.set_default_timeout(60_000)
            h.open_notebook(page, base, token, "notebooks/teachers.ipynb", workspace="teachers")
            h.run_all_cells(page)
            assert not h.error_outputs(page)
            assert page.locator(".jp-OutputArea-output .ttr-guide table").count() >= 15
            page.screenshot(path=str(out / "lab-teachers.png"))
            page.locator(".jp-RenderedMarkdown a", has_text="03 Claiming routes").first.click()
            page.wait_for_function(
                "() => window.jupyterapp.shell.currentWidget?.context?.path"
                " === 'notebooks/03-claiming-routes.ipynb'", timeout=60_000)
            # the browser's own Print of the cheat-sheet page: the one-page sheet alone
            h.open_notebook(page, base, token, "notebooks/cheat-sheet.ipynb", workspace="sheet")
            h.run_all_cells(page)
            page.locator(".ttr-cheat").wait_for()
            page.pdf(path=str(out / "lab-cheat-sheet.pdf"), format="A4", prefer_css_page_size=True)
        finally:
            context.close()
            h.shutdown_kernels(base, token)
    printed = _pdf_pages_as_png(out / "lab-cheat-sheet.pdf")
    assert len(printed) == 1 and _ink(printed[0]) > 0.02, "printing the JupyterLab page"
