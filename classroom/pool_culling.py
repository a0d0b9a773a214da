"""The kernel manager of the classroom server: a kernel handed to a learner is never culled
before the learner's page has connected to it, and a class pool, once handed out, is refilled
with a few spare kernels only.

Jupyter's culler shuts down a kernel with no connection that has been idle (no message) for
``cull_idle_timeout`` seconds. Voila never culls a kernel waiting in its pool, but a kernel that
ran its lesson ahead of time has been "idle" since then, maybe for an hour, and once it is handed
to a learner it has no connection until the learner's page has arrived, started its JavaScript
and opened the kernel's websocket. On a busy machine that takes long: in the classroom test run
beside three CPU-bound processes, one page's websocket took 62 s to open and its kernel was
culled 24 s after the handout, so the page waited for widgets forever ("Loading widget...").

So a kernel out of the pool that no page has connected to yet is not culled for
``connect_grace`` seconds after the first cull pass that sees it outside the pool (Voila's
manager answers for pooled kernels before this class is asked): its page is on its way. Once a
page has connected (``notify_connect``), the kernel is culled as any other, its idle time counted
from that first pass at the earliest (a late clock, never an early one). A kernel whose page
never connects (a tab closed while loading) is culled when the grace is over. Voila builds its
kernel manager on top of this class (``VoilaConfiguration.multi_kernel_manager_class``).

A class pool (30 kernels for the lesson of the day) is refilled by Voila to its full size
``fill_delay`` seconds after the class took its kernels: 30 more kernels running the lesson,
about 100 CPU seconds on a 2-core server in the middle of the lesson. Measured
(``benchmarks/bench_lesson07.py``): 30 learners pressing lesson 07's Run in that minute waited
60 s for a result that takes 5 s otherwise. The learners who come after the class (late, or a
reload) need a few kernels, not 30: ``refill_sizes`` gives, per notebook, the size its pool is
refilled to once the kernels started ahead of time are out. Voila reads a pool's size from
``kernel_pools_config`` at every refill, so the sizes are set there when the first kernel starts:
by then the first fill of every pool is on its way.
"""

from __future__ import annotations

from datetime import timedelta

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Dict, Float, Int


class ClassroomKernelManager(AsyncMappingKernelManager):
    connect_grace = Float(
        600.0, config=True,
        help="Seconds a kernel handed out of the pool may wait for its page to connect before "
             "the idle culler may take it (a busy class can need minutes).")

    refill_sizes = Dict(
        value_trait=Int(min=0), config=True,
        help="Per notebook path (as in kernel_pools_config), the size its pool is refilled to "
             "after the first fill, e.g. {'01-card-splits.ipynb': 3}.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._first_seen_unpooled: dict[str, object] = {}
        self._connected: set[str] = set()  # kernels a page has connected to at least once
        self._refill_sizes_set = False

    async def start_kernel(self, *args, **kwargs):
        self._set_refill_sizes()
        return await super().start_kernel(*args, **kwargs)

    def _set_refill_sizes(self) -> None:
        """Once, at the first kernel's start: every later refill of these pools stops at
        ``refill_sizes`` (Voila's manager, built on this class, holds ``kernel_pools_config``)."""
        if self._refill_sizes_set:
            return
        self._refill_sizes_set = True
        pools = getattr(self, "kernel_pools_config", None)
        for name, size in self.refill_sizes.items():
            if pools is not None and name in pools:
                pools[name] = {**pools[name], "pool_size": min(size, pools[name]["pool_size"])}

    def notify_connect(self, kernel_id):
        self._connected.add(kernel_id)
        return super().notify_connect(kernel_id)

    async def cull_kernel_if_idle(self, kernel_id):
        kernel = self._kernels.get(kernel_id)
        now = utcnow()
        seen = self._first_seen_unpooled.setdefault(kernel_id, now)
        if (kernel is not None and kernel_id not in self._connected
                and now - seen < timedelta(seconds=self.connect_grace)):
            return None  # handed out, its page still on its way
        if kernel is not None and getattr(kernel, "last_activity", seen) < seen:
            kernel.last_activity = seen  # handed out: as good as a message
        return await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        self._first_seen_unpooled.pop(kernel_id, None)
        self._connected.discard(kernel_id)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)
