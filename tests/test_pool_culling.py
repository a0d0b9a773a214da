"""The classroom's idle culler spares a kernel whose page has not connected yet (issue 21, item 8).

Seen in the classroom test beside three CPU-bound processes: a page's websocket took 62 s to
open, and its kernel, handed out of the pool, was culled after 24 s of "inactivity": the page
then waited for its widgets forever. Here the manager's decision, with a kernel stand-in and
the clock moved by hand (the first cull pass that saw the kernel outside the pool).
"""

from __future__ import annotations

import asyncio
import re
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from traitlets.config import Config, Configurable

# Voila's package first: the classroom folder put on the path below holds a voila.py (its config)
from voila.voila_kernel_manager import voila_kernel_manager_factory

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "classroom"))
from jupyter_server._tz import utcnow  # noqa: E402
from pool_culling import ClassroomKernelManager  # noqa: E402

IDLE_S, GRACE_S = 20, 600
KID = "k-1"


@pytest.fixture
def km(monkeypatch):
    manager = ClassroomKernelManager(cull_idle_timeout=IDLE_S, connect_grace=GRACE_S)
    manager._kernels[KID] = SimpleNamespace(
        last_activity=utcnow() - timedelta(hours=1),  # it ran the lesson ahead of time
        execution_state="idle", kernel_name="python3", kernel_spec=SimpleNamespace(metadata={}))
    manager._kernel_connections[KID] = 0
    culled: list[str] = []

    async def shutdown(kernel_id, *args, **kwargs):
        culled.append(kernel_id)

    monkeypatch.setattr(AsyncBase := type(manager).__mro__[1], "shutdown_kernel",
                        lambda self, k, *a, **kw: shutdown(k))
    manager.culled = culled
    assert AsyncBase.__name__ == "AsyncMappingKernelManager"
    return manager


def _pass(km, handed_out_s_ago: float) -> bool:
    """One cull pass, the kernel first seen outside the pool that long ago and no message
    from it since it ran the lesson ahead of time; culled?"""
    km._first_seen_unpooled[KID] = utcnow() - timedelta(seconds=handed_out_s_ago)
    km._kernels[KID].last_activity = utcnow() - timedelta(hours=1)
    asyncio.run(km.cull_kernel_if_idle(KID))
    return KID in km.culled


def test_a_kernel_whose_page_has_not_connected_waits_out_the_grace(km):
    assert not _pass(km, 0)
    assert not _pass(km, 62)  # the slow page of the test run: longer than the idle timeout
    assert not _pass(km, GRACE_S - 5)
    assert _pass(km, GRACE_S + 5)  # a tab closed while loading: freed after the grace


def test_once_its_page_connected_and_left_a_kernel_is_culled_when_idle(km):
    km.notify_connect(KID)
    assert not _pass(km, 0)  # connected: never culled (cull_connected is False)
    km.notify_disconnect(KID)  # the tab vanished
    assert not _pass(km, IDLE_S - 5)  # idle counted from the handout at the earliest
    assert _pass(km, IDLE_S + 5)


def test_the_private_parts_we_override_still_exist():
    """An upgrade of jupyter_server that renames what the manager leans on goes red here."""
    import inspect

    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    assert inspect.iscoroutinefunction(AsyncMappingKernelManager.cull_kernel_if_idle)
    assert list(inspect.signature(AsyncMappingKernelManager.cull_kernel_if_idle).parameters) == [
        "self", "kernel_id"]
    source = inspect.getsource(AsyncMappingKernelManager.cull_kernel_if_idle)
    # the pass reads the kernel from _kernels and judges by its last_activity and connections
    assert "self._kernels[kernel_id]" in source and "last_activity" in source
    assert "_kernel_connections" in source


# --- a class pool refills with a few spare kernels, not a second class ------------------------
def _class_manager(tmp_path, monkeypatch, refill_sizes):
    """Voila's preheating manager built on the classroom's, as `make classroom` builds it, over
    a folder with one lesson; kernels are stand-ins (counted), the refill waits 0 s."""
    (tmp_path / LESSON_NB).write_text("{}")
    parent = Configurable()
    parent.root_dir, parent.notebook_path = str(tmp_path), None
    parent.base_url, parent.server_url, parent.port = "/", "/", 0
    started: list[str] = []

    async def start(self, *args, **kwargs):
        started.append(f"k-{len(started)}")
        return started[-1]

    base = ClassroomKernelManager.__mro__[1]  # the kernel manager under the classroom's
    assert base.__name__ == "AsyncMappingKernelManager"
    monkeypatch.setattr(base, "start_kernel", start)
    manager_class = voila_kernel_manager_factory(ClassroomKernelManager, True, 0)

    async def initialize(self, notebook_path, kernel_id=None, **kwargs):
        kernel_id = await self.start_kernel(kernel_name="python3")
        return {"task": None, "renderer": SimpleNamespace(stop_generator=False,
                                                          rendered_cache=[]),
                "kernel_id": kernel_id}

    monkeypatch.setattr(manager_class, "_initialize", initialize)
    manager = manager_class(parent=parent, fill_delay=0, refill_sizes=refill_sizes,
                            kernel_pools_config={"default": {"pool_size": 0},
                                                 LESSON_NB: {"pool_size": CLASS}})
    return manager, started


LESSON_NB, CLASS = "07-lesson.ipynb", 5


async def _class_takes_its_kernels(tmp_path, monkeypatch, refill_sizes):
    manager, started = _class_manager(tmp_path, monkeypatch, refill_sizes)
    for _ in range(50):  # let the first fill start
        await asyncio.sleep(0)
    assert len(started) == CLASS  # the whole class is served ahead of time
    for _ in range(CLASS):  # every learner of the class opens the lesson
        await manager.get_rendered_notebook(LESSON_NB)
        for _ in range(50):
            await asyncio.sleep(0)
    return len(started), manager.get_pool_size(LESSON_NB)


def test_a_class_pool_is_refilled_with_a_few_spare_kernels(tmp_path, monkeypatch):
    started, waiting = asyncio.run(_class_takes_its_kernels(tmp_path, monkeypatch,
                                                            {LESSON_NB: 2}))
    assert (started, waiting) == (CLASS + 2, 2)  # 5 for the class, then 2 spares


def test_without_refill_sizes_voila_refills_the_whole_class(tmp_path, monkeypatch):
    # what the setting changes: Voila alone starts a second class's worth of kernels
    started, waiting = asyncio.run(_class_takes_its_kernels(tmp_path, monkeypatch, {}))
    assert (started, waiting) == (2 * CLASS, CLASS)


def _classroom_config(monkeypatch, env: dict) -> Config:
    """classroom/voila.py read with ``env`` set (and the TTR_CLASS_* variables it does not name
    unset). The config file sets what the server's kernels inherit (TTR_CLASSROOM, JUPYTER_PATH)
    and puts its folder on sys.path: all put back after the test, or later tests run "in a
    class"."""
    for name in ("TTR_CLASSROOM", "JUPYTER_PATH"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.setattr(sys, "path", list(sys.path))
    for name in ("TTR_CLASS_LESSON", "TTR_CLASS_SIZE", "TTR_CLASS_SPARE", "TTR_CLASS_LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    c = Config()
    path = Path(__file__).resolve().parents[1] / "classroom" / "voila.py"
    exec(compile(path.read_text(), str(path), "exec"), {"get_config": lambda c=c: c,
                                                         "__file__": str(path)})
    return c


def test_the_classroom_config_asks_for_three_spares_for_a_class_lesson(monkeypatch):
    for env, expected in (({"TTR_CLASS_LESSON": "01-card-splits.ipynb", "TTR_CLASS_SIZE": "30"},
                           {"01-card-splits.ipynb": 3}),
                          ({"TTR_CLASS_LESSON": "01-card-splits.ipynb", "TTR_CLASS_SIZE": "30",
                            "TTR_CLASS_SPARE": "6"}, {"01-card-splits.ipynb": 6}),
                          ({}, None)):
        got = _classroom_config(monkeypatch, env).ClassroomKernelManager.get("refill_sizes")
        assert got == expected, env


@pytest.mark.parametrize("env, warm", [
    ({}, {"01-card-splits.ipynb"}),
    ({"TTR_CLASS_LANG": "ru"}, {"01-card-splits.ipynb", "ru/01-card-splits.ipynb",
                                "ru/02-tickets-and-sharing.ipynb"}),
    ({"TTR_CLASS_LESSON": "ru/01-card-splits.ipynb", "TTR_CLASS_SIZE": "30"},
     {"01-card-splits.ipynb", "ru/01-card-splits.ipynb"}),
])
def test_translated_lessons_get_waiting_kernels_only_in_the_class_language(monkeypatch, env, warm):
    """A kernel waits for a Russian lesson only when the class reads Russian (CLASS_LANG) or it is
    the lesson of the day: a kernel for every lesson in every language doubles a server's."""
    deny = _classroom_config(monkeypatch, env).VoilaKernelManager.preheat_denylist
    paths = ["01-card-splits.ipynb", "ru/01-card-splits.ipynb", "ru/02-tickets-and-sharing.ipynb",
             "teachers.ipynb"]
    got = {p for p in paths if not any(re.match(d, f"/srv/notebooks/{p}") for d in deny)}
    assert got == warm
