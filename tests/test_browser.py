"""The lessons in a real browser: JupyterLab and Voila, driven by Playwright in Debian's Chromium.

* every ``notebooks/[0-9][0-9]-*.ipynb`` opens in JupyterLab, runs from the Run menu with no
  error output and no widget that fails to display; a screenshot of the whole notebook and one
  of each lesson widget go to ``test-artifacts/``;
* in 01-card-splits a learner clicks through a card split (a wrong click first) and in
  04-tunnel-claims through a tunnel claim, and the widgets' text in the page is checked;
* Voila serves 01-card-splits as an app, where a click on the widget is answered.

JupyterLab starts once for the module. Without Chromium these tests skip with the install
hint, unless ``TTR_REQUIRE_BROWSER=1``, which makes that a failure.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import lab_harness as h
import pytest

# One JupyterLab for the module: with `pytest -n N --dist loadgroup` the group keeps these tests
# on one xdist worker (with plain `-n N` each worker starts its own JupyterLab).
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ROOT = h.ROOT
PATTERN = "notebooks/[0-9][0-9]-*.ipynb"
NOTEBOOKS = sorted(ROOT.glob(PATTERN))
NO_NOTEBOOKS = f"no lesson notebook matches {PATTERN}: the lessons are a deliverable"
VIEWPORT = {"width": 1280, "height": 1200}
CLICK_TIMEOUT_MS = 30_000
WIDGET_FAILURES = ("Error displaying widget", "Failed to load model class",
                   "A Jupyter widget could not be displayed", "Error rendering")
ROUND_TRIPS: dict[str, float] = {}


def _need_browser():
    h.need_browser()


@pytest.fixture(scope="module")
def browser():
    _need_browser()
    with h.browser() as b:
        yield b


@pytest.fixture(scope="module")
def lab(browser, tmp_path_factory):
    with h.server("lab", tmp_path_factory.mktemp("lab")) as (base, token):
        yield base, token
    _write_round_trips()


@pytest.fixture
def page(browser, lab, request):
    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    pg.set_default_timeout(CLICK_TIMEOUT_MS)
    yield pg
    context.close()
    h.shutdown_kernels(*lab)  # closing the page leaves its kernel running


def _workspace(request) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", request.node.name).strip("-")[:60]


def _notebook_params():
    if not NOTEBOOKS:
        return [pytest.param(None, id="no-notebooks")]
    return [pytest.param(p, id=p.stem) for p in NOTEBOOKS]


def _lesson(prefix: str) -> Path:
    found = [p for p in NOTEBOOKS if p.name.startswith(prefix)]
    assert found, f"lesson {prefix}-*.ipynb is missing from notebooks/"
    return found[0]


def _shot(name: str) -> str:
    h.ARTIFACTS.mkdir(exist_ok=True)
    return str(h.ARTIFACTS / name)


def _widget_shot(page, widget, name: str) -> None:
    """Screenshot one widget whole: the viewport grows first if the widget is taller than the
    notebook area (JupyterLab would clip it under the status bar)."""
    box = widget.bounding_box()
    size = page.viewport_size
    if box and box["height"] + 250 > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": int(box["height"]) + 300})
    widget.scroll_into_view_if_needed()
    widget.screenshot(path=_shot(name))


def _open_and_run(page, lab, path: Path, request) -> None:
    base, token = lab
    h.open_notebook(page, base, token, path.relative_to(ROOT).as_posix(),
                    workspace=_workspace(request))
    h.run_all_cells(page)
    errors = h.error_outputs(page)
    assert not errors, f"{path.name} has error outputs in JupyterLab:\n" + "\n\n".join(errors)
    broken = page.eval_on_selector_all(
        ".jp-OutputArea-output", "(els, bad) => els.map(e => e.textContent)"
        ".filter(t => bad.some(b => t.includes(b)))", list(WIDGET_FAILURES))
    assert not broken, f"{path.name}: a widget failed to display: {broken}"


def _stepper(page, button_text: str):
    """The lesson widget (``.ttr-widget``) that has a button with ``button_text``."""
    widget = page.locator(".ttr-widget").filter(
        has=page.locator("button", has_text=button_text)).first
    widget.wait_for(state="visible")
    widget.scroll_into_view_if_needed()
    return widget


def _click(widget, button_text: str, expect: str, *, label: str) -> float:
    """Click a widget button and wait until a message of the widget contains ``expect``;
    returns (and records) the round trip front end -> kernel -> front end in ms."""
    t0 = time.perf_counter()
    widget.locator("button", has_text=button_text).first.click()
    widget.locator(".ttr-msg-text", has_text=expect).first.wait_for(state="visible")
    ms = (time.perf_counter() - t0) * 1000
    ROUND_TRIPS[label] = round(ms, 1)
    return ms


def _norm(text: str) -> str:
    """ipywidgets writes dropdown options with non-breaking spaces."""
    return text.replace("\xa0", " ")


def _messages(widget) -> list[str]:
    return [_norm(t) for t in widget.locator(".ttr-msg-text").all_inner_texts()]


def _write_round_trips() -> None:
    if ROUND_TRIPS:
        h.ARTIFACTS.mkdir(exist_ok=True)
        (h.ARTIFACTS / "browser-round-trips.json").write_text(json.dumps(ROUND_TRIPS, indent=1))


# --- every lesson in JupyterLab ------------------------------------------------------------------
@pytest.mark.parametrize("path", _notebook_params())
def test_lesson_runs_in_jupyterlab(page, lab, path, request):
    assert path is not None, NO_NOTEBOOKS
    _open_and_run(page, lab, path, request)
    pages = h.screenshot_notebook(page, h.ARTIFACTS / f"lab-{path.stem}")
    assert pages
    widgets = page.locator(".ttr-widget")
    for i in range(widgets.count()):
        _widget_shot(page, widgets.nth(i), f"lab-{path.stem}-widget{i + 1}.png")


# --- clicking through the steppers ---------------------------------------------------------------
def test_card_split_clicks_in_jupyterlab(page, lab, request):
    path = _lesson("01")
    _open_and_run(page, lab, path, request)
    split = _stepper(page, "Draw from deck")
    assert "Pick your first card" in " ".join(_messages(split))
    _widget_shot(page, split, "lab-01-split-0-start.png")

    # a wrong click first: placing a card before drawing one (D1)
    _click(split, "→ my hand", "Placing a drawn card is not possible now", label="place too early")
    error = split.locator(".ttr-msg-error .ttr-msg-text").first
    assert "rule D1" in error.inner_text()

    _click(split, "Draw from deck", "You drew this card", label="draw from deck")
    drawn = split.locator(".ttr-msg-text", has_text="You drew this card").first.inner_text()
    assert "rule D1" in drawn and "Where does it go?" in drawn
    assert split.get_by_text("Card you drew").is_visible()
    _widget_shot(page, split, "lab-01-split-1-drawn.png")

    _click(split, "→ my hand", "Placed. Your second card will go to", label="place in hand")
    assert any("Pick your second card" in m for m in _messages(split))
    _widget_shot(page, split, "lab-01-split-2-placed.png")

    _click(split, "Draw from deck", "Your second card went to the other place",
           label="second card")
    text = split.inner_text()
    assert "Not your turn" in text and "A1 puts the first card in their hand (D1)" in text
    _widget_shot(page, split, "lab-01-split-3-done.png")

    _click(split, "Let the other players play", "it is your turn again", label="bots play")
    assert any("Pick your first card" in m for m in _messages(split))
    _widget_shot(page, split, "lab-01-split-4-next-turn.png")


def test_tunnel_claim_clicks_in_jupyterlab(page, lab, request):
    path = _lesson("04")
    _open_and_run(page, lab, path, request)
    tunnel = _stepper(page, "Lay down the cards")
    route = tunnel.locator(".widget-dropdown", has_text="Route").locator("select").first
    labels = route.locator("option").all_inner_texts()
    tunnels = [t for t in labels if "tunnel" in _norm(t) and "cannot pay" not in _norm(t)]
    assert tunnels, f"no payable tunnel offered: {labels[:5]}"
    route.select_option(label=tunnels[0])
    tunnel.locator(".ttr-msg-text", has_text="Before you lay down").first.wait_for()
    lay = tunnel.locator(".widget-dropdown", has_text="Lay down").locator("select").first
    assert "P(you can pay the extra) =" in _norm(lay.locator("option").first.inner_text())
    _widget_shot(page, tunnel, "lab-04-tunnel-0-route.png")

    # wrong clicks: paying before laying down (U2), the teammate's cards (K1)
    _click(tunnel, "Pay the extra cards", "is not possible now", label="pay too early")
    assert "rule U2" in tunnel.locator(".ttr-msg-error .ttr-msg-text").first.inner_text()
    _click(tunnel, "Use my teammate's cards", "teammate's hand cannot pay", label="teammate")
    assert "rule K1" in tunnel.locator(".ttr-msg-error .ttr-msg-text").first.inner_text()
    _widget_shot(page, tunnel, "lab-04-tunnel-1-teammate.png")

    _click(tunnel, "Lay down the cards", "Now turn the revealed cards", label="lay down")
    heading = tunnel.get_by_text(re.compile(r"Tunnel reveal \(0 of \d+ turned\)")).first
    n = int(re.search(r"of (\d+) turned", heading.inner_text()).group(1))
    _widget_shot(page, tunnel, "lab-04-tunnel-2-laid.png")
    for i in range(1, n + 1):
        expect = f"Card {i} of {n}" if i < n else "match"
        _click(tunnel, "Turn the next card", expect, label=f"turn card {i}")
        tunnel.get_by_text(f"Tunnel reveal ({i} of {n} turned)").first.wait_for()
    summary = " ".join(_messages(tunnel))
    _widget_shot(page, tunnel, "lab-04-tunnel-3-revealed.png")

    if "No revealed card matches" in summary:
        assert "claimed with no extra cost" in summary
    else:
        owed = re.search(r"(\d+) revealed cards? match(?:es)?: pay", summary)
        assert owed, summary
        pay_select = tunnel.locator(".widget-dropdown", has_text="Pay with").locator("select")
        if pay_select.locator("option").count() > 0:
            _click(tunnel, "Pay the extra cards", "the tunnel is yours", label="pay")
        else:
            _click(tunnel, "Take my cards back", "You took your laid cards back",
                   label="take back")
    _widget_shot(page, tunnel, "lab-04-tunnel-4-settled.png")
    _click(tunnel, "Let the other players play", "it is your turn again", label="tunnel bots")


# --- Voila ---------------------------------------------------------------------------------------
def test_card_split_in_voila(browser, tmp_path):
    path = _lesson("01")
    with h.server("voila", tmp_path, notebook=path.relative_to(ROOT).as_posix()) as (base, token):
        context = browser.new_context(viewport=VIEWPORT)
        try:
            page = context.new_page()
            page.set_default_timeout(CLICK_TIMEOUT_MS)
            # Voila runs the notebook: wait for the widget while it works (no fixed time)
            h.open_page(page, f"{base}/?token={token}")
            h.wait_until(page, "() => [...document.querySelectorAll('.ttr-widget button')]"
                         ".some(b => b.innerText.includes('Draw from deck'))",
                         "the card split in Voila", log=tmp_path / "voila.log")
            split = page.locator(".ttr-widget").filter(
                has=page.locator("button", has_text="Draw from deck")).first
            assert not page.locator(".jp-OutputArea-output", has_text="Traceback").count()
            page.screenshot(path=_shot("voila-01-top.png"))  # Voila scrolls inside the page
            _click(split, "Draw from deck", "You drew this card", label="voila draw")
            assert "rule D1" in split.locator(".ttr-msg-text",
                                              has_text="You drew this card").first.inner_text()
            _click(split, "→ team cardholder", "Your second card will go to your hand",
                   label="voila place")
            split.scroll_into_view_if_needed()
            page.screenshot(path=_shot("voila-01-placed.png"))
            _widget_shot(page, split, "voila-01-widget.png")
        finally:
            context.close()
    _write_round_trips()
