"""classroom/pool_culling.py against the jupyter_server installed here (issue 22, item 5).

ClassroomKernelManager leans on jupyter_server's private parts: ``_tz.utcnow``, the ``_kernels``
table, ``last_activity`` on each kernel, and the culling pass ``cull_kernel_if_idle``. An upgrade
that renames any of them would silently bring back the early cull (a preheated kernel shut down
before its page connects); these tests drive the real culling pass with a stand-in kernel and go red
on such an upgrade.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "classroom"))

jupyter_server = pytest.importorskip("jupyter_server")
from jupyter_server._tz import utcnow  # noqa: E402 - after the skip: the private name we rely on
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402
from pool_culling import ClassroomKernelManager  # noqa: E402


def test_the_private_parts_we_override_still_exist():
    assert inspect.iscoroutinefunction(AsyncMappingKernelManager.cull_kernel_if_idle)
    assert list(inspect.signature(AsyncMappingKernelManager.cull_kernel_if_idle).parameters) == [
        "self", "kernel_id"]
    source = inspect.getsource(AsyncMappingKernelManager.cull_kernel_if_idle)
    # the pass reads the kernel from _kernels and judges by its last_activity
    assert "self._kernels[kernel_id]" in source and "last_activity" in source


def _manager_with(kernel_id: str, idle_for: timedelta):
    manager = ClassroomKernelManager(cull_idle_timeout=60, cull_interval=20)
    kernel = SimpleNamespace(execution_state="idle", kernel_name="python3",
                             kernel_spec=SimpleNamespace(metadata={}),
                             last_activity=utcnow() - idle_for)
    manager._kernels[kernel_id] = kernel
    culled: list[str] = []

    async def shutdown(kid, *args, **kwargs):  # the real one would stop a process
        culled.append(kid)
        manager._first_seen_unpooled.pop(kid, None)

    manager.shutdown_kernel = shutdown  # type: ignore[method-assign]
    return manager, kernel, culled


def test_a_kernel_idle_for_an_hour_in_the_pool_is_not_culled_when_handed_out():
    manager, kernel, culled = _manager_with("k1", timedelta(hours=1))
    asyncio.run(manager.cull_kernel_if_idle("k1"))
    assert culled == []  # its clock starts now, not when it ran the lesson ahead of time
    assert utcnow() - kernel.last_activity < timedelta(seconds=5)


def test_a_kernel_left_idle_after_it_was_handed_out_is_culled():
    manager, kernel, culled = _manager_with("k2", timedelta(hours=1))
    asyncio.run(manager.cull_kernel_if_idle("k2"))  # first seen outside the pool
    manager._first_seen_unpooled["k2"] = utcnow() - timedelta(minutes=5)
    kernel.last_activity = utcnow() - timedelta(minutes=5)  # no message since
    asyncio.run(manager.cull_kernel_if_idle("k2"))
    assert culled == ["k2"]
