"""Binder's image, replayed with pip (issue 33, part 1).

mybinder.org builds ``binder/`` with jupyter-repo2docker: with ``binder/`` present the root
``pyproject.toml`` is not read; the image starts from repo2docker's conda base for the Python of
``runtime.txt`` (a conda lock inside repo2docker's wheel: jupyterlab, notebook, jupyter_server,
ipywidgets, tornado ... at fixed versions), then pip-installs ``binder/requirements.txt`` on top,
then runs ``binder/postBuild``. Pins that resolve alone can still clash with that base (notebook
7.4.7 of the base wants jupyterlab<4.5), which a resolution of the pins alone cannot see.

So this test, without Docker: installs repo2docker into a throw-away virtualenv, checks that its
plan (``repo2docker --no-build --debug``, the Dockerfile it would build) starts from the lock read
here and runs our two files, then replays the plan in a Python 3.11 virtualenv: the lock's
Python packages at the lock's versions (``--no-deps``: the lock is a whole environment), then
``pip install -r binder/requirements.txt`` as repo2docker runs it, then postBuild's
``pip install --no-deps .``. It asserts ``pip check`` is clean, no JupyterLab extension is marked
incompatible, and the Binder classroom links (Voila as a server extension, as on Binder) render
lessons 00 and 05 with their widgets and no traceback.

What it needs comes from the package index. The virtualenvs are kept under ``.venv/binder-check/``
(keyed by repo2docker's version, the lock and the pins), so a rerun takes seconds, not minutes.
It runs when TTR_BINDER_CHECK=1 (``.ci/run`` runs this file so), and is skipped otherwise.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from lab_harness import free_port

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
# The repo2docker release this check reads (mybinder.org's builder at the time of issue 33).
REPO2DOCKER = "jupyter-repo2docker==2026.4.0"
LOCK = "repo2docker/buildpacks/conda/environment.py-3.11-linux-64.lock"
CACHE = ROOT / ".venv" / "binder-check"
# Conda packages whose PyPI name differs; the Python itself and pip's own tools are the venv's.
PYPI_NAME = {"brotli-python": "brotli", "nbconvert-core": "nbconvert",
             "jupyterhub-base": "jupyterhub", "python-fastjsonschema": "fastjsonschema"}
NOT_FROM_PIP = {"python", "pip", "setuptools", "wheel"}
PIP_TIMEOUT_S = 1200


def _skip_unless_asked() -> None:
    if os.environ.get("TTR_BINDER_CHECK") != "1":
        pytest.skip("the Binder check installs Binder's image with pip (minutes on a first run): "
                    "set TTR_BINDER_CHECK=1 (.ci/run does)")


def _python311() -> str:
    if sys.version_info[:2] == (3, 11):
        return sys.executable
    found = shutil.which("python3.11")
    if found is None:
        pytest.fail("the Binder check needs Python 3.11 (Binder's runtime.txt): no python3.11")
    return found


def _run(cmd: list, *, timeout: float = PIP_TIMEOUT_S, env=None) -> str:
    """Run ``cmd``; its output (stdout, then stderr) or a failure quoting both."""
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                          timeout=timeout, env=env)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))}\n{done.stdout[-3000:]}" \
                                 f"\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def _venv(path: Path, build) -> Path:
    """A virtualenv at ``path`` made by ``build(python)`` once; a stamp marks it complete (a
    build that failed halfway is made again)."""
    python = path / "bin" / "python"
    if not (path / ".complete").is_file():
        shutil.rmtree(path, ignore_errors=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        _run([_python311(), "-m", "venv", path])
        build(python)
        (path / ".complete").write_text("")
    return python


def _forget_others(keep: Path) -> None:
    for old in keep.parent.glob(keep.name.split("-")[0] + "-*"):
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)


def lock_requirements(lock: str) -> list[str]:
    """The pip-installable part of a conda lock (``@EXPLICIT`` lines, one package URL each):
    the Python packages (a build string starting ``py``: noarch ``pyh...`` or ``py311...``), as
    ``name==version`` with PyPI's name. C libraries, nodejs and meta-packages are not pip's."""
    reqs = []
    for line in lock.splitlines():
        if not line.startswith("https://"):
            continue
        stem = re.sub(r"\.(conda|tar\.bz2)$", "", line.split("#")[0].rsplit("/", 1)[1])
        name, version, build = stem.rsplit("-", 2)
        if build.startswith("py") and name not in NOT_FROM_PIP:
            reqs.append(f"{PYPI_NAME.get(name, name)}=={version}")
    return reqs


def test_lock_requirements_reads_a_conda_lock():
    lock = "\n".join([
        "# platform: linux-64", "@EXPLICIT",
        "https://conda.anaconda.org/conda-forge/linux-64/libgcc-15.2.0-h767d61c_7.conda#c0",
        "https://conda.anaconda.org/conda-forge/linux-64/python-3.11.14-hfe2f287_1_cpython.conda#1",
        "https://conda.anaconda.org/conda-forge/noarch/pip-25.2-pyh8b19718_0.conda#d",
        "https://conda.anaconda.org/conda-forge/noarch/notebook-7.4.7-pyhd8ed1ab_0.conda#a",
        "https://conda.anaconda.org/conda-forge/linux-64/tornado-6.5.2-py311h49ec1c0_1.conda#b",
        "https://conda.anaconda.org/conda-forge/noarch/nbconvert-core-7.16.6-pyh29332c3_0.conda#e",
        "https://conda.anaconda.org/conda-forge/noarch/_openmp_mutex-4.5-2_gnu.tar.bz2#7",
        "https://conda.anaconda.org/conda-forge/noarch/jupyterhub-singleuser-5.4.0-hd843c07_0.conda#f",
        "https://conda.anaconda.org/conda-forge/noarch/types-python-dateutil-2.9.0.20251008-pyhd8ed1ab_0.conda#9",
    ])
    assert lock_requirements(lock) == ["notebook==7.4.7", "tornado==6.5.2", "nbconvert==7.16.6",
                                       "types-python-dateutil==2.9.0.20251008"]


@pytest.fixture(scope="module")
def repo2docker() -> Path:
    _skip_unless_asked()
    where = CACHE / ("r2d-" + REPO2DOCKER.split("==")[1])
    _forget_others(where)
    python = _venv(where, lambda py: _run([py, "-m", "pip", "install", "-q", REPO2DOCKER]))
    return python.parent


def _base_lock(bindir: Path) -> str:
    site = next((bindir.parent / "lib").glob("python3*/site-packages"))
    wheel_file = site / LOCK
    if wheel_file.is_file():
        return wheel_file.read_text()
    # read it from the wheel itself if the install ever stops unpacking data files
    wheel = next((bindir.parent / "wheels").glob("*.whl"))  # pragma: no cover
    with zipfile.ZipFile(wheel) as z:  # pragma: no cover
        return z.read(LOCK).decode()


def test_repo2docker_plans_our_binder_folder(repo2docker):
    """The Dockerfile repo2docker would build: the conda base from the lock this test replays,
    then our pins with the base's pip, then our postBuild."""
    started = time.monotonic()
    plan = _run([repo2docker / "repo2docker", "--no-build", "--debug", ROOT], timeout=300)
    print(f"repo2docker --no-build: {time.monotonic() - started:.1f} s")
    assert "Building conda environment for python=3.11" in plan, plan[:2000]
    # repo2docker names its copy of a file by its path, "-" and "." escaped as -2d and -2e
    lock_copy = Path(LOCK).name.replace("-", "-2d").replace(".", "-2e")
    assert re.search(rf"COPY .*{re.escape(lock_copy)}-[0-9a-f]+ /tmp/env/environment\.lock", plan), \
        f"the plan does not start from {Path(LOCK).name}:\n{plan[:3000]}"
    assert 'RUN ${KERNEL_PYTHON_PREFIX}/bin/pip install --no-cache-dir -r "binder/requirements.txt"' \
        in plan, plan
    assert "RUN ./binder/postBuild" in plan, plan
    assert plan.index("binder/requirements.txt") < plan.index("RUN ./binder/postBuild")
    assert "pyproject.toml" not in plan  # with binder/ present, the root is not read


@pytest.fixture(scope="module")
def image(repo2docker) -> Path:
    """The image's Python environment, replayed with pip: returns its bin/ folder."""
    lock = _base_lock(repo2docker)
    pins = (BINDER / "requirements.txt").read_text()
    key = hashlib.sha256((REPO2DOCKER + lock + pins).encode()).hexdigest()[:16]
    where = CACHE / f"image-{key}"
    _forget_others(where)
    started = time.monotonic()

    def build(py: Path) -> None:
        reqs = where / "lock-requirements.txt"
        reqs.write_text("\n".join(lock_requirements(lock)) + "\n")
        _run([py, "-m", "pip", "install", "-q", "--no-deps", "-r", reqs])
        # as the image's Dockerfile runs it (repo2docker's plan, test above)
        _run([py, "-m", "pip", "install", "-q", "-r", BINDER / "requirements.txt"])

    python = _venv(where, build)
    # postBuild, every run (the project may have changed since the cache was made)
    _run([python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", ROOT])
    print(f"Binder image replayed in {time.monotonic() - started:.0f} s "
          f"(load {open('/proc/loadavg').read().split()[0]})")
    return python.parent


def test_pip_check_is_clean_on_binders_base(image):
    # pip check reads every installed package's requirements: the base's and ours together
    done = subprocess.run([image / "python", "-m", "pip", "check"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def _clean_env(tmp: Path, bindir: Path) -> dict[str, str]:
    """The environment of a Binder session: the image's bin first, Jupyter's folders fresh."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTER", "VIRTUAL_ENV", "TTR_", "PYTHON"))}
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    env["TTRLIB_DEAL_KEY"] = os.environ.get("TTRLIB_DEAL_KEY", "")  # the tests' key (conftest)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR"):
        (tmp / name).mkdir(parents=True, exist_ok=True)
        env[name] = str(tmp / name)
    env["NO_COLOR"] = "1"
    return env


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_no_lab_extension_is_marked_incompatible(image, tmp_path):
    done = subprocess.run([image / "jupyter", "labextension", "list"], capture_output=True,
                          text=True, timeout=300, env=_clean_env(tmp_path, image))
    listing = ANSI.sub("", done.stdout + done.stderr)
    rows = re.findall(r"^\s+(\S+) v(\S+) (enabled|disabled)\s+(\S+)", listing, re.M)
    assert {name for name, *_ in rows} >= {"@jupyter-widgets/jupyterlab-manager",
                                           "@jupyter-notebook/lab-extension"}, listing
    bad = [f"{name} v{version}" for name, version, _, status in rows if status != "OK"]
    assert not bad, f"marked incompatible: {bad}\n{listing}"
    assert "incompatible with the current version" not in listing, listing


# Widget views each lesson's page holds, counted by hand from the lessons' code cells that end in
# a widget: 00 the TeamGame and 3 exercise() cells; 05 the OddsExplorer and 5 exercise() cells.
# Voila's lab template puts each output in a script of its own, as JSON.
OUTPUT = re.compile(r'<script type="application/vnd\.voila\.cell-output\+json">(.*?)</script>',
                    re.S)


def widget_views(page: str) -> list[str]:
    """The model ids of the widget views among a Voila page's outputs."""
    outputs = [json.loads(raw) for raw in OUTPUT.findall(page)]
    return [o["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
            for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
FAILURES = ("Traceback", "There was an error when executing cell", "Error displaying widget")


@pytest.fixture(scope="module")
def binder_server(image, tmp_path_factory):
    """jupyter server in the image's environment, serving a copy of the repository as Binder
    does (the links say ``?urlpath=voila/render/notebooks/...``): (base url, token, log)."""
    tmp = tmp_path_factory.mktemp("binder")
    repo = tmp / "repo"
    for part in ("notebooks", "docs"):
        shutil.copytree(ROOT / part, repo / part)
    port, token = free_port(), secrets.token_hex(16)
    env = _clean_env(tmp, image)
    env["HOME"] = str(tmp / "home")  # a fresh Binder user
    log = tmp / "server.log"
    cmd = [image / "jupyter", "server", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           "--ServerApp.port_retries=0", f"--ServerApp.token={token}", "--allow-root",
           f"--ServerApp.root_dir={repo}"]
    with open(log, "w") as out:
        proc = subprocess.Popen([str(c) for c in cmd], cwd=repo, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5):
                    break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()[-3000:]
                time.sleep(0.5)
        yield base, token, log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)


@pytest.mark.parametrize(("lesson", "widgets"), [("00-start-here.ipynb", 4),
                                                   ("05-tunnel-odds.ipynb", 6)])
def test_binder_renders_the_lesson_with_its_widgets(binder_server, lesson, widgets):
    base, token, log = binder_server
    started = time.monotonic()
    url = f"{base}/voila/render/notebooks/{lesson}?token={token}"
    with urllib.request.urlopen(url, timeout=600) as answer:
        assert answer.status == 200
        page = answer.read().decode()
    print(f"{lesson} on Binder's image: {time.monotonic() - started:.1f} s")
    views = widget_views(page)
    assert len(views) == len(set(views)) == widgets, f"{lesson}: widget views {views}"
    assert not [f for f in FAILURES if f in page], page[-3000:]
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def test_the_readmes_binder_links_point_at_files_that_exist():
    """Every Binder link of the README (JupyterLab and classroom app) opens a path of this
    repository: lessons 00-08 and whatever else it links."""
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"mybinder\.org/v2/gh/[^/]+/[^/]+/[^?]+\?urlpath=(lab/tree|voila/render)"
                       r"/([^)\s&#]+)", readme)
    for n in range(9):
        for kind in ("lab/tree", "voila/render"):
            assert any(k == kind and Path(p).name.startswith(f"{n:02d}-") for k, p in links), \
                f"the README has no Binder {kind} link for lesson {n:02d}"
    missing = [p for _, p in links if not (ROOT / urllib.request.url2pathname(p)).is_file()]
    assert not missing, f"README Binder links to paths that do not exist: {missing}"
