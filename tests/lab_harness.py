"""Start JupyterLab or Voila on 127.0.0.1 and drive them with Playwright in Debian's Chromium.

Used by the browser tests. Chromium comes from the system (``/usr/bin/chromium``, Debian's
package): Playwright's own browser download does not work everywhere, so we never use it.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
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
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"server did not answer {url} in {timeout} s:\n{log.read_text()[-3000:]}")


@contextmanager
def server(kind: str, tmp: Path, *, notebook: str | None = None):
    """Run ``jupyter lab`` (kind="lab") or ``voila`` (kind="voila") on a free loopback port.

    Yields ``(base_url, token)``. Config, runtime and settings live under ``tmp`` so nothing of
    the user's own Jupyter set-up leaks in.
    """
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_DATA_DIR_UNUSED"):
        (tmp / name).mkdir(parents=True, exist_ok=True)
    env["JUPYTER_CONFIG_DIR"] = str(tmp / "JUPYTER_CONFIG_DIR")
    env["JUPYTER_RUNTIME_DIR"] = str(tmp / "JUPYTER_RUNTIME_DIR")
    settings = tmp / "lab-settings"
    for rel, value in LAB_SETTINGS.items():
        f = settings / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(json.dumps(value))
    env["JUPYTERLAB_SETTINGS_DIR"] = str(settings)
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp / "workspaces")
    bindir = Path(sys.executable).parent
    if kind == "lab":
        cmd = [str(bindir / "jupyter"), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
               f"--ServerApp.token={token}", "--ServerApp.password=", "--allow-root",
               f"--ServerApp.root_dir={ROOT}", "--LabApp.news_url=", "--ServerApp.open_browser=False"]
        probe = f"http://127.0.0.1:{port}/api/status?token={token}"
    else:
        cmd = [str(bindir / "voila"), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
               f"--ServerApp.token={token}", "--ServerApp.allow_root=True",
               "--VoilaConfiguration.show_tracebacks=False", str(ROOT / notebook)]
        probe = f"http://127.0.0.1:{port}/?token={token}"
    log = tmp / f"{kind}.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_http(probe, proc, log)
        yield f"http://127.0.0.1:{port}", token
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextmanager
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def run_all_cells(page, timeout_s: float = 120) -> None:
    """Run every cell of the open notebook from the Run menu and wait until none is pending."""
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    wait_kernel_idle(page, timeout_s)
    page.click("div.lm-MenuBar-itemLabel:text-is('Run')")
    item = page.wait_for_selector("li.lm-Menu-item:has-text('Run All Cells')", state="visible")
    item.click()
    # A pending cell shows "[*]:" in its prompt; wait until every code cell has a number.
    page.wait_for_function(
        """() => {
            const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
            return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
        }""",
        timeout=timeout_s * 1000,
    )
    wait_kernel_idle(page, timeout_s)


def wait_kernel_idle(page, timeout_s: float = 120) -> None:
    page.wait_for_function(
        """() => {
            const s = document.querySelector('.jp-Notebook-ExecutionIndicator');
            return s && s.getAttribute('data-status') === 'idle';
        }""",
        timeout=timeout_s * 1000,
    )


def error_outputs(page) -> list[str]:
    """Texts of error outputs (tracebacks) in the open notebook."""
    return page.eval_on_selector_all(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error'], "
        ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']",
        "els => els.map(e => e.textContent)",
    )
