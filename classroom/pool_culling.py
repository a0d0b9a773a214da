"""The kernel manager of the classroom server: a preheated kernel's idle clock starts when it
leaves the pool.

Jupyter's culler shuts down a kernel with no connection that has been idle (no message) for
``cull_idle_timeout`` seconds. Voila never culls a kernel waiting in its pool, but a kernel that
ran its lesson ahead of time has been "idle" since then, maybe for an hour: once it is handed to
a learner, the next cull pass, a few seconds later, can shut it down before the learner's page
has connected to it, and the widgets never appear. (A lesson that calls
``voila.utils.get_query_string()`` sends messages when it resumes, which hides the problem; one
that does not is exposed to it.)

So the idle time of a kernel is counted from the first cull pass that sees it outside the pool
(Voila's manager answers for pooled kernels before this class is asked), at most
``cull_interval`` seconds after it was handed out: a late clock, never an early one. Voila
builds its kernel manager on top of this class (``VoilaConfiguration.multi_kernel_manager_class``).
"""

from __future__ import annotations

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager


class ClassroomKernelManager(AsyncMappingKernelManager):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._first_seen_unpooled: dict[str, object] = {}

    async def cull_kernel_if_idle(self, kernel_id):
        kernel = self._kernels.get(kernel_id)
        seen = self._first_seen_unpooled.setdefault(kernel_id, utcnow())
        if kernel is not None and getattr(kernel, "last_activity", seen) < seen:
            kernel.last_activity = seen  # handed out: as good as a message
        return await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        self._first_seen_unpooled.pop(kernel_id, None)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)
