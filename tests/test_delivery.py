"""Delivery: Binder pins, the README's commands, `make lab` on the learner's own copy of the
lessons (the shipped ones stay pristine), and `make classroom` serving the shipped lessons with
the project's classroom config."""

from __future__ import annotations

import os
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from lab_harness import ROOT as HARNESS_ROOT
from lab_harness import classroom_command, free_port
from packaging.requirements import Requirement

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"


def _pins() -> dict[str, str]:
    pins = {}
    for line in (BINDER / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"binder/requirements.txt: {line!r} is not an exact pin (name==version)"
            pins[_norm(name)] = version
    return pins


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _project_requirements() -> list[Requirement]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [Requirement(r) for r in meta["dependencies"] + meta["optional-dependencies"]["lab"]]
    return [r for r in reqs if r.marker is None or r.marker.evaluate({"python_version": "3.11"})]


def test_binder_runtime_and_postbuild():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    post = (BINDER / "postBuild").read_text()
    lines = [x.strip() for x in post.splitlines() if x.strip() and not x.startswith("#")]
    assert lines[0] == "set -e", "postBuild must stop at the first failing command"
    assert any("pip install" in x and "--no-deps" in x and x.endswith(" .") for x in lines)
    assert os.access(BINDER / "postBuild", os.X_OK)


def test_binder_pins_agree_with_pyproject():
    pins = _pins()
    for req in _project_requirements():
        name = _norm(req.name)
        assert name in pins, f"{req.name} is a dependency but binder/requirements.txt does not pin it"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"binder pins {req.name}=={pins[name]}, outside pyproject's range {req.specifier}")
    # The widgets need the JupyterLab extension of ipywidgets 8 on Binder.
    assert pins["ipywidgets"].startswith("8.") and pins["jupyterlab"].startswith("4.")
    assert "jupyterlab-widgets" in pins


def test_binder_pins_resolve_on_python_311(tmp_path):
    """pip resolves the exact pins together for Python 3.11 (asks the package index). Alone:
    the clash with repo2docker's base is tests/test_binder_image.py's to see."""
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
           "--python-version", "3.11", "--only-binary=:all:", "--target", str(tmp_path / "t"),
           "-r", str(BINDER / "requirements.txt")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def test_readme_shows_the_two_commands_and_the_lesson_links():
    readme = (ROOT / "README.md").read_text()
    assert "make lab" in readme and "make test" in readme
    assert "mybinder.org/badge" in readme
    for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")):
        assert f"lab/tree/notebooks/{nb.name}" in readme, f"no JupyterLab launch link for {nb.name}"
        assert f"voila/render/notebooks/{nb.name}" in readme, f"no classroom link for {nb.name}"


def _make_serves(target: list[str], url: str, tmp_path: Path) -> str:
    """Run ``make <target>`` until ``url`` answers 200; return the page; stop the server."""
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "cfg"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "rt"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "ws"))
    proc = subprocess.Popen(["make", *target], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, proc.stdout.read().decode()[-3000:]
            try:
                with urllib.request.urlopen(url, timeout=60) as answer:
                    assert answer.status == 200
                    return answer.read().decode()
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"`make {target[0]}` did not answer within 120 s")
                time.sleep(0.5)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def test_make_lab_starts_a_server_that_answers(tmp_path):
    port, token = free_port(), secrets.token_hex(8)
    args = f"--no-browser --port={port} --ip=127.0.0.1 --ServerApp.token={token}"
    copy = tmp_path / "my-lessons"
    _make_serves(["lab", f"LAB_ARGS={args}", f"LESSONS_COPY={copy}"],
                 f"http://127.0.0.1:{port}/api/status?token={token}", tmp_path)
    assert (copy / "00-start-here.ipynb").is_file(), "make lab did not make the learner's copy"


# --- lessons stay pristine (issue 9, item 6) ------------------------------------------------------
def _make(*args: str) -> str:
    done = subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_make_lab_opens_the_learners_copy_not_the_shipped_lessons():
    # -n: print the recipe only; -o: never (re)build the virtualenv for it
    recipe = _make("-n", "-o", ".venv/.installed", "lab")
    jupyter = [line for line in recipe.splitlines() if "jupyter lab" in line]
    assert len(jupyter) == 1 and "jupyter lab my-lessons/00-start-here.ipynb" in jupyter[0], recipe
    assert 'cp -R "notebooks" "my-lessons"' in recipe


def test_lessons_copy_is_made_once_with_subfolders_and_fresh_lessons_keeps_the_old(tmp_path):
    shipped = tmp_path / "shipped"
    (shipped / "answers").mkdir(parents=True)
    (shipped / "00-start-here.ipynb").write_text('{"cells": []}')
    (shipped / "answers" / "01-key.json").write_text('{"q1": "3/7"}')
    (shipped / "data.csv").write_text("a,b\n1,2\n")
    copy = tmp_path / "my-lessons"
    where = [f"LESSONS={shipped}", f"LESSONS_COPY={copy}"]

    _make("lessons-copy", *where)
    assert _tree(copy) == _tree(shipped)  # every file, sub-folders and data files too

    # the learner's work survives the next `make lab`
    (copy / "00-start-here.ipynb").write_text('{"cells": ["my answer"]}')
    (copy / "notes.txt").write_text("mine")
    mine = _tree(copy)
    _make("lessons-copy", *where)
    assert _tree(copy) == mine
    assert _tree(shipped)["00-start-here.ipynb"] == b'{"cells": []}'  # shipped untouched

    # starting again moves the old copy aside (nothing deleted) and copies the lessons anew
    _make("fresh-lessons", *where)
    assert _tree(copy) == _tree(shipped)
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("my-lessons-")]
    assert len(aside) == 1 and re.fullmatch(r"my-lessons-\d{8}-\d{6}", aside[0].name)
    assert _tree(aside[0]) == mine


def test_gitignore_ignores_the_learners_copies_not_the_lessons():
    paths = ["my-lessons/00-start-here.ipynb", "my-lessons-20260101-090000/01-card-splits.ipynb",
             "notebooks/01-card-splits.ipynb"]
    done = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.stdout.split() == paths[:2], done.stdout + done.stderr


def test_make_classroom_runs_the_harness_command_on_the_shipped_lessons():
    """The browser tests and the benchmark start the classroom server with
    lab_harness.classroom_command: it must be what `make classroom` runs."""
    recipe = " ".join(_make("-n", "-o", ".venv/.installed", "classroom", "VOILA_PORT=8123",
                            "CLASS_PORT=8124").replace("\\\n", " ").split())
    # the class server first, in the background, then Voila in notebooks/
    assert "-m ttrlib.server --port 8124 --ip 127.0.0.1" in recipe, recipe
    assert recipe.index("-m ttrlib.server") < recipe.index(" cd notebooks && "), recipe
    expected = " ".join(classroom_command(ROOT / "notebooks", 8123)[1:])
    assert f"/bin/voila {expected}" in recipe, recipe
    assert HARNESS_ROOT == ROOT


def test_make_classroom_serves_a_lesson_as_an_app(tmp_path):
    port, class_port = free_port(), free_port()
    data = tmp_path / "class-data"
    page = _make_serves(["classroom", f"VOILA_PORT={port}", "VOILA_ARGS=--Voila.ip=127.0.0.1",
                         f"CLASS_PORT={class_port}", f"CLASS_DATA={data}"],
                        f"http://127.0.0.1:{port}/voila/render/01-card-splits.ipynb", tmp_path)
    assert "widget" in page and "Traceback" not in page
    assert (data / "teacher-token").is_file()  # the class server started beside it
    # the classroom template: no link to a CDN (Voila's lab template has two)
    assert "cdn.jsdelivr.net" not in page and "cdnjs.cloudflare.com" not in page
