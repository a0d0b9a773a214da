"""Start JupyterLab or Voila on 127.0.0.1 and drive them with Playwright in Debian's Chromium.

Used by the browser tests. Chromium comes from the system (``/usr/bin/chromium``, Debian's
package): Playwright's own browser download does not work everywhere, so we never use it.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, asynccontextmanager, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
INSTALL_HINT = ("Chromium is not installed: `sudo apt-get update && sudo apt-get install chromium` "
                "(Debian's package; set TTR_REQUIRE_BROWSER=1 to make its absence a failure)")

# JupyterLab settings for a quiet, deterministic test session: every cell rendered (no
# virtual scrolling), no news or update pop-ups.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    # Never write outputs back into the lesson files (they are stored without outputs).
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False},
}


def chromium_path() -> str | None:
    for path in CHROMIUM_CANDIDATES:
        if os.path.exists(path):
            return path
    return shutil.which("chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(url: str, proc: subprocess.Popen, log: Path, timeout: float = 90) -> None:
    """Wait until ``url`` answers 200 (the probe must be cheap: it never executes a notebook)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:  # refused, reset, or an HTTP error while the server starts
            pass
        time.sleep(0.3)
    raise RuntimeError(f"server did not answer {url} in {timeout} s:\n{log.read_text()[-3000:]}")


def _isolated_env(tmp: Path) -> dict[str, str]:
    """The environment for a server under test: Jupyter config, runtime and settings under
    ``tmp``, so nothing of the user's own Jupyter set-up leaks in."""
    env = dict(os.environ)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR"):
        (tmp / name).mkdir(parents=True, exist_ok=True)
        env[name] = str(tmp / name)
    settings = tmp / "lab-settings"
    for rel, value in LAB_SETTINGS.items():
        f = settings / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(json.dumps(value))
    env["JUPYTERLAB_SETTINGS_DIR"] = str(settings)
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp / "workspaces")
    return env


@contextmanager
def _running(cmd: list[str], probe: str, log: Path, *, cwd: Path, env: dict[str, str],
             timeout: float = 90):
    """Start ``cmd``, wait until ``probe`` answers 200, yield the process, stop it."""
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_http(probe, proc, log, timeout)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


VOILA_PROBE = "/voila/api/themes/@jupyterlab/theme-light-extension/index.css"


@contextmanager
def server(kind: str, tmp: Path, *, notebook: str | None = None):
    """Run ``jupyter lab`` (kind="lab") or ``voila`` (kind="voila") on a free loopback port.

    Yields ``(base_url, token)``. Config, runtime and settings live under ``tmp`` so nothing of
    the user's own Jupyter set-up leaks in. JupyterLab exposes ``window.jupyterapp`` (used to
    wait for the kernel) and never autosaves. Voila 0.5 serves the one ``notebook`` (a path
    relative to the repository, or absolute) at ``/?token=...``; opening that page executes the
    notebook, so the start-up probe asks for a static file instead.
    """
    port, token = free_port(), secrets.token_hex(16)
    env = _isolated_env(tmp)
    bindir = Path(sys.executable).parent
    if kind == "lab":
        cmd = [str(bindir / "jupyter"), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
               f"--ServerApp.token={token}", "--ServerApp.password=", "--allow-root",
               f"--ServerApp.root_dir={ROOT}", "--LabApp.news_url=", "--ServerApp.open_browser=False",
               "--LabApp.expose_app_in_browser=True",
               # checkpoints go under tmp, not into notebooks/.ipynb_checkpoints
               f"--FileCheckpoints.root_dir={tmp / 'checkpoints'}"]
        probe = f"http://127.0.0.1:{port}/api/status?token={token}"
    elif kind == "voila":
        if notebook is None:
            raise ValueError("voila needs the notebook to serve")
        # Voila's own token option (it ignores --ServerApp.token).
        cmd = [str(bindir / "voila"), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
               f"--Voila.token={token}", "--VoilaConfiguration.show_tracebacks=False",
               str(ROOT / notebook)]
        probe = f"http://127.0.0.1:{port}{VOILA_PROBE}"
    else:
        raise ValueError(f"kind must be 'lab' or 'voila', not {kind!r}")
    with _running(cmd, probe, tmp / f"{kind}.log", cwd=ROOT, env=env):
        yield f"http://127.0.0.1:{port}", token


CLASSROOM_CONFIG = ROOT / "classroom"
PORT_TRIES = 3  # free ports tried for a classroom server (see classroom())


def classroom_command(folder: Path, port: int, *extra: str,
                      config: Path = CLASSROOM_CONFIG) -> list[str]:
    """The command `make classroom` runs (see the Makefile), for ``folder`` on ``port``; run it
    with ``folder`` as the working directory (the kernels start there, as in JupyterLab).
    ``config``: another checkout's ``classroom/`` (benchmarks/hunt_lost_widgets.py)."""
    voila = Path(sys.executable).parent / "voila"
    return [str(voila), ".", f"--Voila.config_file_paths={config}", f"--port={port}",
            "--Voila.port_retries=0", "--no-browser", *extra]


@contextmanager
def classroom(tmp: Path, *, folder: Path | None = None, args: tuple[str, ...] = (),
              env: dict[str, str] | None = None):
    """Run the classroom server (Voila with the project's ``classroom/`` config, as
    `make classroom` does) on a free loopback port, serving ``folder`` (default: the shipped
    ``notebooks/``). ``args`` are extra Voila options (they win over the config file), ``env``
    extra variables (e.g. TTR_CLASS_LESSON). Yields ``(base_url, process)``; lessons are at
    ``{base_url}/voila/render/<name>.ipynb``. Its log is ``tmp / "classroom.log"``."""
    folder = Path(folder or ROOT / "notebooks")
    full_env = {**_isolated_env(tmp), **(env or {})}
    with ExitStack() as stack:
        for attempt in range(PORT_TRIES):
            # a free port can be taken by another test's server before Voila binds it (two
            # pytest workers): Voila then stops at once, and another free port is tried
            port = free_port()
            cmd = classroom_command(folder, port, "--Voila.ip=127.0.0.1", *args)
            base = f"http://127.0.0.1:{port}"
            try:
                proc = stack.enter_context(_running(cmd, base + VOILA_PROBE,
                                                    tmp / "classroom.log", cwd=folder,
                                                    env=full_env))
                break
            except RuntimeError as exc:
                if "already in use" not in str(exc) or attempt == PORT_TRIES - 1:
                    raise
        yield base, proc


def need_browser(*tools: str) -> None:
    """Skip the calling test (or fail it with TTR_REQUIRE_BROWSER=1) when Chromium, Python
    Playwright or one of the command-line ``tools`` (e.g. "pdftoppm") is missing."""
    import pytest

    problem = None
    if chromium_path() is None:
        problem = INSTALL_HINT
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "Python Playwright is not installed: `pip install -e '.[test]'`"
    for tool in tools:
        if problem is None and shutil.which(tool) is None:
            problem = f"{tool} is missing: `sudo apt-get install poppler-utils`"
    if problem:
        if os.environ.get("TTR_REQUIRE_BROWSER") == "1":
            pytest.fail(problem, pytrace=False)
        pytest.skip(problem)


# --- the classroom server's kernels --------------------------------------------------------------
# The id of the kernel behind an open Voila page (Voila writes it in the page's config).
# What runs off the right edge of the screen: lesson widgets, exercises and outputs whose box
# ends beyond it (a map frame scrolls inside itself, so its content does not count).
OVERFLOW_JS = """(w) => ({page: document.scrollingElement.scrollWidth,
    cut: [...document.querySelectorAll('.ttr-widget, .ttr-exercise, .jp-OutputArea-output')]
        .filter(e => e.getBoundingClientRect().right > w + 1)
        .map(e => e.className.slice(0, 60) + ': ' + (e.innerText || '').slice(0, 60))})"""

def ws_message_parts(raw: bytes) -> list[bytes]:
    """A kernel websocket message in jupyter_server's v1 protocol, in its parts: channel,
    header, parent header, metadata, content, buffers (what a page's kernel socket carries)."""
    count = int.from_bytes(raw[:8], "little")
    offsets = [int.from_bytes(raw[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    return [raw[offsets[i]:offsets[i + 1]] for i in range(count - 1)]


def ws_message(parts: list[bytes]) -> bytes:
    """The v1 message of ``parts`` (the inverse of :func:`ws_message_parts`)."""
    offsets = [8 * (len(parts) + 2)]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    return b"".join([len(offsets).to_bytes(8, "little"),
                     *(o.to_bytes(8, "little") for o in offsets), *parts])


# A page's widget views (issue 33's lost-widget tests, benchmarks/hunt_lost_widgets.py): all,
# still loading, lost (Voila's "Error displaying widget" alone in its box, or the classroom
# page's reload message in a widget's place).
WIDGET_STATUS_JS = """() => {
  const views = [...document.querySelectorAll('.jupyter-widgets')];
  const text = e => (e.textContent || '').trim();
  return {views: views.length,
          // a view still loading is a bare output box saying so (no jupyter-widgets class yet)
          loading: [...document.querySelectorAll('.jp-OutputArea-output')].filter(
            e => e.childElementCount === 0 && /^Loading widget/.test(text(e))).length,
          lost: views.filter(e => e.childElementCount === 0 && /^Error displaying/.test(text(e)))
                  .length + document.querySelectorAll('.jupyter-widgets .ttr-lost-widget').length};
}"""
# ... and settled: views drawn and none still loading, or something lost (the reload message)
WIDGETS_SETTLED_JS = """() => {
  const s = (WIDGET_STATUS)();
  return (s.views > 0 && s.loading === 0) || s.lost > 0;
}""".replace("WIDGET_STATUS", WIDGET_STATUS_JS)


def ws_header(raw: bytes) -> dict:
    """The header of a v1 kernel websocket message (``{}`` for anything else)."""
    try:
        return json.loads(ws_message_parts(bytes(raw))[1])
    except (ValueError, IndexError, TypeError):
        return {}


@asynccontextmanager
async def routed_page(base: str, path: str, from_kernel, *, to_kernel=None,
                      console: list | None = None):
    """``base + path`` open in Chromium (async Playwright), its kernel's websocket routed:
    every message of the kernel is handed to ``from_kernel(message, send)`` on its way to the
    page, every message of the page to ``to_kernel(message, send)`` (default: sent on), and
    each sends it on (``send``), later, changed, or not at all. ``send`` of ``to_kernel`` can
    also send messages of its own to the kernel. ``console`` collects the page's console."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            if console is not None:
                page.on("console", lambda m: console.append(m.text[:300]))

            def route(ws) -> None:
                server = ws.connect_to_server()
                ws.on_message(lambda m: server.send(m) if to_kernel is None
                              else to_kernel(m, server.send))
                server.on_message(lambda m: from_kernel(m, ws.send))

            await page.route_web_socket(re.compile(r".*/api/kernels/.*/channels.*"), route)
            await page.goto(base + path, timeout=900_000)
            yield page
        finally:
            await browser.close()


KERNEL_ID_JS = "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"


def kernel_alive(base: str, kernel_id: str) -> bool:
    """Whether the Voila server at ``base`` still runs that kernel (its /api/kernels/<id>)."""
    try:
        with urllib.request.urlopen(f"{base}/api/kernels/{kernel_id}", timeout=30):
            return True
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return False
        raise


def kernel_processes(server_pid: int) -> list:
    """The kernel processes (psutil) the server process has started."""
    import psutil

    found = []
    for p in psutil.Process(server_pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(p.cmdline()):
                found.append(p)
        except psutil.Error:  # it ended while we looked
            pass
    return found


def wait_for_log(log: Path, text: str, proc: subprocess.Popen, stall_s: float | None = None) -> None:
    """Wait until the server's log contains ``text``: as long as the log grows or the server and
    its kernels work (no fixed time, see :func:`wait_until`); fail when the server exits or
    nothing moved for ``stall_s`` seconds (default ``STALL_S``), quoting the log."""
    stall_s = STALL_S if stall_s is None else stall_s
    size, cpu = -1, _cpu_seconds(proc.pid)
    moved = last_t = time.monotonic()
    while text not in log.read_text():
        now = time.monotonic()
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited before {text!r} was in its log:\n"
                               f"{log.read_text()[-3000:]}")
        grown = log.stat().st_size != size
        size = log.stat().st_size
        busy = False
        if now - last_t >= 5:
            new_cpu = _cpu_seconds(proc.pid)
            busy, cpu, last_t = new_cpu - cpu > CPU_MOVING_S * (now - last_t), new_cpu, now
        if grown or busy:
            moved = now
        elif now - moved > stall_s:
            raise RuntimeError(f"no {text!r} in the server's log, and nothing moved for "
                               f"{stall_s:.0f} s:\n{log.read_text()[-3000:]}")
        time.sleep(0.5)


# --- waiting on a page: for the condition, not for a fixed time ---------------------------------
# A slow machine (a class's kernels, other work) may need minutes where a quiet one needs
# seconds, so a test waits for what it needs as long as something is moving: the page (its
# text), the server's log, or the CPU time of the server and its kernels. It gives up when the
# page shows a failure that waiting cannot mend, or when nothing has moved for STALL_S seconds,
# and then says what the page showed. Time limits belong in benchmarks/.
# A failure shows in an output or a widget, never in the lesson's own prose (the teacher's page
# quotes these messages): the first one found, or "".
# A widget view Voila could not find ("Error displaying widget: model not found") is asked for
# again by the classroom page (its template, issue 33): the kernel's answer draws it in place, or
# the page puts its reload message there (at once, or after 30 s without an answer). So a lost
# view fails a wait once it has stayed lost LOST_GRACE_S, or at once as the reload message; a view
# the page mended lets the wait go on, and the wait writes it down (mended_widgets.log in the
# test artifacts, and a warning in the test summary): the hunt for the loss's cause goes on.
LOST_GRACE_S = 60
LOST_NOW_JS = """() => [...document.querySelectorAll('.jupyter-widgets')].some(
    el => el.childElementCount === 0 && /^Error displaying widget/.test(el.textContent.trim()))"""
PAGE_FAILURES = """() => {
    if (document.querySelector('.ttr-lost-widget')) return 'a lost widget (reload message)';
    const since = window.__ttrLostSince || (window.__ttrLostSince = new WeakMap());
    for (const el of document.querySelectorAll('.jupyter-widgets')) {
        if (el.childElementCount === 0 && /^Error displaying widget/.test(el.textContent.trim())) {
            if (!since.has(el)) since.set(el, Date.now());
            if (Date.now() - since.get(el) > GRACE_MS)
                return el.textContent.trim() + ' (not mended in GRACE_S s)';
        }
    }
    for (const el of document.querySelectorAll('.jp-OutputArea-output')) {
        const t = el.innerText || '';
        if (/Traceback \\(most recent|reload this page|could not be shown/.test(t)) return t.slice(0, 300);
    }
    return '';
}""".replace("GRACE_MS", str(LOST_GRACE_S * 1000)).replace("GRACE_S", str(LOST_GRACE_S))
STALL_S = 180.0
CPU_MOVING_S = 0.02  # CPU seconds per second of waiting that count as work (idle kernels tick)
_CONSOLE: dict[int, list[str]] = {}


def watch(page):
    """Keep ``page``'s console errors and warnings and its uncaught errors for
    :func:`page_report`; returns the page."""
    seen = _CONSOLE.setdefault(id(page), [])
    page.on("console", lambda m: seen.append(f"console {m.type}: {m.text}"[:300])
            if m.type in ("error", "warning") and "atisf" not in m.text else None)
    page.on("pageerror", lambda e: seen.append(f"page error: {e}"[:300]))
    return page


def page_text(page) -> str:
    try:
        return page.evaluate("() => document.body ? document.body.innerText : ''")
    except Exception as exc:  # noqa: BLE001 - a page between two documents has no body yet
        return f"(no text: {type(exc).__name__})"


def page_report(page, log: Path | None = None, shot: Path | None = None) -> str:
    """What the page showed (the start and the end of its visible text), what it said on its
    console, and the end of the server's log: the message of a failed wait."""
    text = " ".join(page_text(page).split())
    shown = text if len(text) <= 1600 else f"{text[:800]} [...] {text[-800:]}"
    parts = [f"the page ({page.url}) showed: {shown or '(nothing)'}"]
    said = _CONSOLE.get(id(page), [])
    if said:
        parts.append("its console said:\n  " + "\n  ".join(said[-12:]))
    if shot is not None:
        try:
            shot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shot))
            parts.append(f"screenshot: {shot}")
        except Exception:  # noqa: BLE001 - the report matters more than the picture
            pass
    if log is not None and log.exists():
        parts.append("the server's log ends:\n" + log.read_text()[-2500:])
    return "\n".join(parts)


def cpu_seconds(procs) -> float:
    """CPU seconds used by these ``psutil`` processes, their live descendants (a server's
    kernels, a tournament's process pool) and the children they waited for (a pool shut down);
    a process that is gone counts 0."""
    import psutil

    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
            for c in p.children(recursive=True):
                try:
                    ct = c.cpu_times()
                    total += ct.user + ct.system
                except psutil.Error:
                    pass
        except psutil.Error:
            pass
    return total


def _cpu_seconds(pid: int) -> float:
    """:func:`cpu_seconds` of process ``pid`` (a server) and its descendants."""
    import psutil

    try:
        return cpu_seconds([psutil.Process(pid)])
    except psutil.Error:
        return 0.0


def wait_until(page, condition: str, what: str, *, arg=None, proc=None, log: Path | None = None,
               stall_s: float = STALL_S, poll_s: float = 0.5, failures=PAGE_FAILURES) -> None:
    """Wait until the JavaScript ``condition`` (a function, given ``arg``) is true on ``page``.

    No overall time limit: it fails when the page shows a failure (``failures``: a JavaScript
    function naming the first one found, or "") or when nothing moved for ``stall_s`` seconds
    (the page's text, the server ``log``, the CPU time of the server process ``proc`` and its
    kernels), with :func:`page_report` as the message."""
    last_text, last_log, last_cpu = None, -1, _cpu_seconds(proc.pid) if proc else 0.0
    last_cpu_t = moved = time.monotonic()
    shot = ARTIFACTS / "failed-waits" / (re_slug(what) + ".png")
    whole = failures is PAGE_FAILURES  # a page that must end whole: no view left lost
    while True:
        try:
            if page.evaluate(condition, arg) and not (whole and page.evaluate(LOST_NOW_JS)):
                if whole:
                    _note_mended(page, what)
                return
        except Exception as exc:  # noqa: BLE001 - a page navigating or still loading
            if "Target page, context or browser has been closed" in str(exc):
                raise
        text = page_text(page)
        try:
            bad = page.evaluate(failures) if failures else ""
        except Exception:  # noqa: BLE001 - a page navigating: nothing to judge yet
            bad = ""
        if bad:
            raise AssertionError(f"{what}: the page shows {bad!r}\n"
                                 + page_report(page, log, shot))
        now = time.monotonic()
        size = log.stat().st_size if log is not None and log.exists() else -1
        busy = False
        if proc is not None and now - last_cpu_t >= 5:
            cpu = _cpu_seconds(proc.pid)
            busy = cpu - last_cpu > CPU_MOVING_S * (now - last_cpu_t)
            last_cpu, last_cpu_t = cpu, now
        if text != last_text or size != last_log or busy:
            last_text, last_log, moved = text, size, now
        elif now - moved > stall_s:
            raise AssertionError(f"{what}: nothing moved for {stall_s:.0f} s (page, server log, "
                                 "server CPU)\n" + page_report(page, log, shot))
        time.sleep(poll_s)


def _note_mended(page, what: str) -> None:
    """Write down the widgets the classroom page found lost and mended (its console says so)."""
    mended = [line for line in _CONSOLE.get(id(page), []) if "lesson widget" in line
              and "drawn" in line and "drawn 0 of" not in line]
    if mended:
        import warnings

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        with (ARTIFACTS / "mended_widgets.log").open("a") as out:
            out.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {what} ({page.url}):\n  "
                      + "\n  ".join(mended) + "\n")
        warnings.warn(f"{what}: the page lost a widget and mended it: {mended[-1]}", stacklevel=3)


def open_page(page, url: str):
    """Start loading ``url`` in ``page`` and return at once (a lesson page streams while its
    kernel runs: wait for what the test needs with :func:`wait_until`); the page is watched."""
    watch(page)
    page.evaluate("(url) => { window.location.href = url; }", url)
    return page


def re_slug(text: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:80] or "wait"


@contextmanager
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def open_notebook(page, base: str, token: str, rel: str, *, workspace: str | None = None,
                  timeout_s: float = 120) -> None:
    """Open ``rel`` (path from the repository root) in JupyterLab and wait for its kernel.

    ``workspace`` opens it in a fresh named workspace, so the tabs of an earlier page are not
    restored (each would start its kernel again).
    """
    where = f"workspaces/{workspace}/tree/{rel}?reset&" if workspace else f"tree/{rel}?"
    page.goto(f"{base}/lab/{where}token={token}", timeout=timeout_s * 1000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=timeout_s * 1000)
    wait_kernel_idle(page, timeout_s)


def shutdown_kernels(base: str, token: str) -> int:
    """End every session (and its kernel) of the server; returns how many there were."""
    def call(method: str, path: str):
        req = urllib.request.Request(f"{base}{path}?token={token}", method=method)
        with urllib.request.urlopen(req, timeout=30) as r:
            body = r.read()
            return json.loads(body) if body else None

    sessions = call("GET", "/api/sessions") or []
    for s in sessions:
        call("DELETE", f"/api/sessions/{s['id']}")
    return len(sessions)


def run_all_cells(page, timeout_s: float = 120) -> None:
    """Run every cell of the open notebook from the Run menu and wait until none is pending.

    Returns when every code cell has an execution number, or when an error stopped the run
    (JupyterLab then leaves the later cells unrun); check ``error_outputs`` afterwards.
    """
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    wait_kernel_idle(page, timeout_s)
    page.click("div.lm-MenuBar-itemLabel:text-is('Run')")
    item = page.wait_for_selector("li.lm-Menu-item:has-text('Run All Cells')", state="visible")
    item.click()
    # A pending cell shows "[*]:" in its prompt; wait until every code cell has a number.
    page.wait_for_function(
        """() => {
            const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
            if (!prompts.length || prompts.some(p => p.textContent.includes('*'))) return false;
            return prompts.every(p => /\\[\\d+\\]/.test(p.textContent))
                || (ERRORS)().length > 0;
        }""".replace("ERRORS", ERRORS_JS),
        timeout=timeout_s * 1000,
    )
    wait_kernel_idle(page, timeout_s)


def wait_kernel_idle(page, timeout_s: float = 120) -> None:
    """Wait until the open notebook's kernel is connected and idle.

    With ``window.jupyterapp`` (our JupyterLab exposes it) this reads the session itself: the
    toolbar indicator alone also says "idle" while the kernel is still starting.
    """
    page.wait_for_function(
        """() => {
            const app = window.jupyterapp;
            if (app && app.shell && app.shell.currentWidget) {
                const ctx = app.shell.currentWidget.sessionContext;
                const kernel = ctx && ctx.session && ctx.session.kernel;
                return !!(ctx && ctx.isReady && kernel && kernel.connectionStatus === 'connected'
                          && kernel.status === 'idle');
            }
            const s = document.querySelector('.jp-Notebook-ExecutionIndicator');
            return s && s.getAttribute('data-status') === 'idle';
        }""",
        timeout=timeout_s * 1000,
    )


# Error outputs of the open notebook. JupyterLab renders a traceback with the stderr mime type,
# so the DOM cannot tell it from a warning: read the notebook model (window.jupyterapp) instead,
# and without it fall back to stderr texts that look like a traceback.
ERRORS_JS = """() => {
    const app = window.jupyterapp;
    const panel = app && app.shell && app.shell.currentWidget;
    const found = [];
    if (panel && panel.content && panel.content.model) {
        const cells = panel.content.model.cells;
        for (let i = 0; i < cells.length; i++) {
            const cell = cells.get(i);
            if (cell.type !== 'code') continue;
            for (const o of cell.outputs.toJSON()) {
                if (o.output_type === 'error') {
                    found.push(`cell ${i}: ${o.ename}: ${o.evalue}\\n${(o.traceback || []).join('\\n')}`);
                }
            }
        }
        return found;
    }
    for (const el of document.querySelectorAll(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error'], "
            + ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")) {
        if (/Traceback|Error/.test(el.textContent)) found.push(el.textContent);
    }
    return found;
}"""


def error_outputs(page) -> list[str]:
    """Texts of error outputs (tracebacks) in the open notebook (ANSI colour codes removed)."""
    import re

    return [re.sub(r"\x1b\[[0-9;]*m", "", t) for t in page.evaluate(ERRORS_JS)]


def screenshot_notebook(page, stem: Path, max_pages: int = 40) -> list[Path]:
    """Screenshots of the whole open notebook, one per screenful: the notebook's scroll panel
    (``.jp-WindowedPanel-outer``) is scrolled down page by page and each view is saved as
    ``{stem}-p01.png``, ``{stem}-p02.png`` ... (a little overlap between pages). Returns them."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    for old in stem.parent.glob(f"{stem.name}-p[0-9][0-9].png"):
        old.unlink()
    panel = ".jp-NotebookPanel:not(.lm-mod-hidden)"
    outer = f"{panel} .jp-WindowedPanel-outer"
    # The panel scrolls past the last cell (empty space): stop at the last cell's bottom.
    total, step = page.evaluate(
        """(sel) => {
            const o = document.querySelector(sel);
            if (!o) return [0, 0];
            const cells = o.querySelectorAll('.jp-Cell');
            const last = cells.length ? cells[cells.length - 1] : null;
            const bottom = last ? last.getBoundingClientRect().bottom
                                  - o.getBoundingClientRect().top + o.scrollTop + 20
                                : o.scrollHeight;
            return [Math.min(bottom, o.scrollHeight), Math.max(200, o.clientHeight - 60)];
        }""",
        outer,
    )
    shots = []
    offset = 0
    while len(shots) < max_pages:
        page.evaluate("([sel, y]) => { const o = document.querySelector(sel); if (o) o.scrollTop = y; }",
                      [outer, offset])
        page.wait_for_timeout(150)  # let the scrolled cells paint
        path = stem.parent / f"{stem.name}-p{len(shots) + 1:02d}.png"
        page.locator(panel).first.screenshot(path=str(path))
        shots.append(path)
        if not step or offset + step + 60 >= total:  # this view reached the last cell
            break
        offset += step
    page.evaluate("(sel) => { const o = document.querySelector(sel); if (o) o.scrollTop = 0; }", outer)
    return shots


def notebook_of(*cells: str):
    """A notebook of these code cells with the Python 3 kernel (a page made for one test)."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python",
                                 "name": "python3"}
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    return nb
