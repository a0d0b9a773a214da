"""Issue 33, suspects 2 and 6 of the lost widget models, over every lesson's own models.

2. A displayed model, or a ``Layout``/``Style`` it shares with another widget, closed before the
   page asks (voila#143, ipywidgets#2308): ``widgets/base.py::close_all`` closes a replaced
   control's children, layout and style, so a layout shared with a control still shown would
   leave that control pointing at a closed model.
6. A container whose children (or any model reference) point at a closed or missing model
   (voila#1119).

What the page asks for is the kernel's answer to ``request_states``: ipywidgets'
``Widget.get_manager_state()``, every live model's state. Each lesson runs top to bottom in a
fresh kernel (nbclient, as ``test_notebooks``), then, in the same kernel, that answer is taken
apart: every ``IPY_MODEL_`` reference in it must name a model of the answer, no Layout or Style
may be referenced by two models, and every widget the lesson's outputs display must be in it.
Then every lesson screen's **New game** is pressed (the path that closes replaced controls
with ``close_all``) and the same holds again. ``tests/test_lost_widget_suspects.py`` shows in
the browser what each of these faults costs a page.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.notebook

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted(ROOT.glob("notebooks/[0-9][0-9]-*.ipynb"))
VIEW = "application/vnd.jupyter.widget-view+json"
MARK = "TTR-MODELS "

# In the lesson's kernel: the models of the kernel's answer to the page (request_states), each
# with the references it holds (trait, model id) and its class; and the answer's error, if the
# kernel cannot give it (a reference to a closed model raises there).
SURVEY = '''
def _ttr_survey(tag):
    import json as _json
    from ipywidgets import Widget as _W

    def refs(value, trait, out):
        if isinstance(value, str) and value.startswith("IPY_MODEL_"):
            out.append([trait, value[len("IPY_MODEL_"):]])
        elif isinstance(value, (list, tuple)):
            for v in value:
                refs(v, trait, out)
        elif isinstance(value, dict):
            for v in value.values():
                refs(v, trait, out)
        return out

    try:
        states, error = _W.get_manager_state(drop_defaults=False)["state"], None
    except Exception as exc:  # what the page's question would meet
        states, error = {}, f"{type(exc).__name__}: {exc}"
    models = {k: {"name": v["model_name"],
                  "refs": [r for t, x in v["state"].items() for r in refs(x, t, [])]}
              for k, v in states.items()}
    print("TTR-MODELS " + _json.dumps({"tag": tag, "error": error, "models": models}))
'''
PRESS_NEW_GAME = '''
from ipywidgets.widgets.widget import _instances as _ttr_live
from ttrlib.widgets.base import LessonWidget as _TtrLesson
_ttr_screens = [x for x in list(_ttr_live.values()) if isinstance(x, _TtrLesson)]
for _s in _ttr_screens:
    _s.new_game_button.click()  # the button's own handler: start_new_game, close_all
print("TTR-PRESSED", len(_ttr_screens))
'''


def _surveys(nb) -> dict[str, dict]:
    found = {}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            for line in out.get("text", "").splitlines() if out.get("name") == "stdout" else ():
                if line.startswith(MARK):
                    data = json.loads(line[len(MARK):])
                    found[data["tag"]] = data
    return found


def displayed(nb) -> set[str]:
    """The model ids the lesson's outputs show (what the page asks its kernel for)."""
    return {out["data"][VIEW]["model_id"] for cell in nb.cells
            for out in cell.get("outputs", []) if VIEW in out.get("data", {})}


def faults(survey: dict, shown: set[str]) -> list[str]:
    """What would cost the page a model: the answer failing, a reference to a model not in it,
    a Layout or Style held by two models, a displayed widget not in it."""
    if survey["error"]:
        return [f"the kernel cannot answer the page: {survey['error']}"]
    models = survey["models"]
    found = []
    holders: dict[str, list[str]] = {}
    for mid, m in models.items():
        for trait, ref in m["refs"]:
            if ref not in models:
                found.append(f"{m['name']} {mid[:8]} .{trait} -> {ref[:8]}, not in the answer")
            elif models[ref]["name"].endswith(("LayoutModel", "StyleModel")):
                holders.setdefault(ref, []).append(f"{m['name']} {mid[:8]}")
    found += [f"{models[ref]['name']} {ref[:8]} shared by {who}" for ref, who in holders.items()
              if len(who) > 1]
    found += [f"displayed {mid[:8]}, not in the answer" for mid in shown if mid not in models]
    return found


def test_faults_finds_what_it_looks_for():
    """The check itself, on answers built by hand: each fault is found, a clean answer passes."""
    lay = {"name": "LayoutModel", "refs": []}
    button = {"name": "ButtonModel", "refs": [["layout", "L"]]}
    clean = {"error": None, "models": {"L": lay, "B": button}}
    assert faults(clean, {"B"}) == []
    shared = {"error": None, "models": {"L": lay, "B": button, "C": button}}
    assert len(faults(shared, set())) == 1 and "shared" in faults(shared, set())[0]
    dangling = {"error": None, "models": {"V": {"name": "VBoxModel", "refs": [["children", "X"]]}}}
    assert "not in the answer" in faults(dangling, set())[0]
    assert "displayed" in faults(clean, {"gone"})[0]
    assert "cannot answer" in faults({"error": "AttributeError: x", "models": {}}, set())[0]


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_a_lessons_models_are_whole_before_and_after_new_game(path):
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    nb.cells += [nbformat.v4.new_code_cell(SURVEY + "\n_ttr_survey('ran')"),
                 nbformat.v4.new_code_cell(PRESS_NEW_GAME),
                 nbformat.v4.new_code_cell("_ttr_survey('new game')")]
    NotebookClient(nb, kernel_name="python3", timeout=None, startup_timeout=600,
                   iopub_timeout=120, raise_on_iopub_timeout=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    surveys = _surveys(nb)
    assert set(surveys) == {"ran", "new game"}, surveys.keys()
    shown = displayed(nb)
    # lesson 08 shows its table's widget only when a class server runs (a message otherwise)
    assert shown or path.stem.startswith("08-"), "the lesson displays no widget"
    ran = surveys["ran"]
    assert not faults(ran, shown), faults(ran, shown)
    # after New game the displayed screens are the same models, still whole
    assert not faults(surveys["new game"], shown), faults(surveys["new game"], shown)
    assert len(ran["models"]) >= len(shown)
