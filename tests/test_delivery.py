"""Delivery: Binder pins, the README's commands, and `make lab` answering on a free port."""

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
from lab_harness import free_port
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
    """pip resolves the exact pins together for Python 3.11 (asks the package index)."""
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
    _make_serves(["lab", f"LAB_ARGS={args}"],
                 f"http://127.0.0.1:{port}/api/status?token={token}", tmp_path)


def test_make_classroom_serves_a_lesson_as_an_app(tmp_path):
    port = free_port()
    page = _make_serves(["classroom", f"VOILA_PORT={port}", "VOILA_ARGS=--Voila.ip=127.0.0.1"],
                        f"http://127.0.0.1:{port}/voila/render/01-card-splits.ipynb", tmp_path)
    assert "widget" in page and "Traceback" not in page
