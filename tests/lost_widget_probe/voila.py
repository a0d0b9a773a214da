# A test-only Voila config (tests/test_lost_widget_preheat.py), loaded after classroom/voila.py
# by a second --Voila.config_file_paths: it changes nothing Voila does, it only writes on the
# server's stderr (the test's classroom.log) when a notebook run of a kernel starts and ends each
# cell, and when a page takes a preheated kernel (Voila's stop_generator, set in the same moment
# as its "Using pre-heated kernel" line), each with the wall clock in ms. The test then knows
# where in its pool's preheat run a page took its kernel (issue 33, suspect 1).
import sys
import time

from voila.execute import VoilaExecutor
from voila.notebook_renderer import NotebookRenderer


def _say(event: str, renderer_or_kernel) -> None:
    kernel = getattr(renderer_or_kernel, "_ttr_kernel", renderer_or_kernel)
    sys.stderr.write(f"ttr-probe {time.time():.3f} {event} kernel={kernel}\n")
    sys.stderr.flush()


_kernel_start = NotebookRenderer._jinja_kernel_start


async def _jinja_kernel_start(self, nb, kernel_id, kernel_future):
    self._ttr_kernel = kernel_id
    result = await _kernel_start(self, nb, kernel_id, kernel_future)
    self.executor._ttr_kernel = kernel_id
    return result


_execute_cell = VoilaExecutor.execute_cell


async def execute_cell(self, cell, resources, cell_index, store_history=True):
    _say(f"cell={cell_index} start", self)
    try:
        return await _execute_cell(self, cell, resources, cell_index, store_history)
    finally:
        _say(f"cell={cell_index} end", self)


def _stop(self) -> bool:
    return self.__dict__.get("_ttr_stop", False)


def _set_stop(self, value: bool) -> None:
    self.__dict__["_ttr_stop"] = value
    if value:
        _say("taken", self)


NotebookRenderer._jinja_kernel_start = _jinja_kernel_start
VoilaExecutor.execute_cell = execute_cell
NotebookRenderer.stop_generator = property(_stop, _set_stop)
