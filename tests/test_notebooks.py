"""The lesson notebooks: each runs top to bottom on a fresh kernel, and each is stored clean.

Every ``notebooks/[0-9][0-9]-*.ipynb`` is executed headless with nbclient (120 s per cell) in its
own folder, and must produce no error output. The files themselves must be stored as nbstripout
leaves them: no outputs, no execution counts, no saved widget state. The lessons are a
deliverable, so finding no notebook at all is a failure, not a skip.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
PATTERN = "notebooks/[0-9][0-9]-*.ipynb"
NOTEBOOKS = sorted(ROOT.glob(PATTERN))
# the lessons built in other languages (notebooks/<lang>/, issue 35): stored and run the same way
TRANSLATED = sorted(ROOT.glob("notebooks/[a-z][a-z]/[0-9][0-9]-*.ipynb"))
# No clock on a cell: on a loaded machine a lesson's cell may take minutes (issue 21, item 8);
# speed is measured in benchmarks/. The kernel's start-up and a cell's last outputs get generous
# bounds, and lost outputs fail the test instead of leaving a cell silently empty.
RUN_LIMITS = dict(timeout=None, startup_timeout=600, iopub_timeout=120,
                  raise_on_iopub_timeout=True)
NO_NOTEBOOKS = f"no lesson notebook matches {PATTERN} in {ROOT}: the lessons are a deliverable"

# Metadata that records a run (nbstripout removes it too).
RUN_METADATA = ("widgets", "signature")
RUN_CELL_METADATA = ("execution", "ExecuteTime")

pytestmark = pytest.mark.notebook


def _params():
    if not NOTEBOOKS:
        return [pytest.param(None, id="no-notebooks")]
    return ([pytest.param(p, id=p.stem) for p in NOTEBOOKS]
            + [pytest.param(p, id=f"{p.parent.name}-{p.stem}") for p in TRANSLATED])


def _ansi_free(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def error_outputs(nb) -> list[str]:
    """Every error output and every traceback printed to stderr, with the cell number."""
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                tb = _ansi_free("\n".join(out.get("traceback", [])))
                found.append(f"cell {i}: {out.get('ename')}: {out.get('evalue')}\n{tb}")
            elif out.get("output_type") == "stream" and out.get("name") == "stderr" \
                    and "Traceback (most recent call last)" in out.get("text", ""):
                found.append(f"cell {i}: traceback on stderr:\n{_ansi_free(out['text'])}")
    return found


def test_the_lesson_notebooks_exist():
    assert NOTEBOOKS, NO_NOTEBOOKS
    names = [p.name for p in NOTEBOOKS]
    assert len(set(n[:2] for n in names)) == len(names), f"two lessons share a number: {names}"


@pytest.mark.parametrize("path", _params())
def test_notebook_is_stored_without_outputs(path):
    assert path is not None, NO_NOTEBOOKS
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    dirty = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            if cell.get("outputs"):
                dirty.append(f"cell {i} has {len(cell.outputs)} output(s)")
            if cell.get("execution_count") is not None:
                dirty.append(f"cell {i} has execution_count {cell.execution_count}")
        for key in RUN_CELL_METADATA:
            if key in cell.get("metadata", {}):
                dirty.append(f"cell {i} has metadata.{key}")
    for key in RUN_METADATA:
        if key in nb.metadata:
            dirty.append(f"the notebook has metadata.{key} (saved {key})")
    assert not dirty, (f"{path.name} is not stored clean (run `nbstripout {path.relative_to(ROOT)}`):"
                       "\n  " + "\n  ".join(dirty))


@pytest.mark.parametrize("path", _params())
def test_notebook_runs_top_to_bottom(path):
    assert path is not None, NO_NOTEBOOKS
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    kernel = nb.metadata.get("kernelspec", {}).get("name", "python3")
    client = NotebookClient(nb, kernel_name=kernel, **RUN_LIMITS,
                            resources={"metadata": {"path": str(path.parent)}})
    t0 = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError as exc:
        pytest.fail(f"{path.name} stops with an error:\n{_ansi_free(str(exc))[-4000:]}")
    seconds = time.perf_counter() - t0
    errors = error_outputs(nb)
    assert not errors, f"{path.name} has error outputs:\n" + "\n\n".join(errors)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code), "a code cell did not run"
    _record(path.name if path in NOTEBOOKS else f"{path.parent.name}-{path.name}", seconds)


def _record(name: str, seconds: float) -> None:
    """One small file per notebook (the suite may run on several xdist workers at once)."""
    folder = ARTIFACTS / "notebook-times"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{Path(name).stem}.json").write_text(json.dumps({"notebook": name,
                                                                "seconds": round(seconds, 2)}))
