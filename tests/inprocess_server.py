"""The class server's application in this test process (issue 30: no server process per test):
``make_app`` on a loop of its own thread, 127.0.0.1 at a free port, the same ``request`` as
``server_harness.ClassServer``. ``stop`` closes the listener and ends the thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from server_harness import ClassServer, free_port

from ttrlib.server.app import MAX_BODY, make_app, make_server


class InProcessServer(ClassServer):
    def stop(self, sig=None) -> None:  # type: ignore[override]
        self.loop.call_soon_threadsafe(self.done.set)
        self.thread.join(10)


def start_in_process(data: Path, lessons_url: str = "http://localhost:8866",
                     base_url: str = "/") -> InProcessServer:
    port = free_port()
    ready = threading.Event()
    state: dict = {}

    async def serve() -> None:
        state["server"] = make_server(data, lessons_url)
        state["server"].base_url = base_url
        listener = make_app(state["server"]).listen(port, "127.0.0.1", max_body_size=MAX_BODY)
        state["loop"], state["done"] = asyncio.get_running_loop(), asyncio.Event()
        ready.set()
        await state["done"].wait()
        listener.stop()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    if not ready.wait(60):
        raise RuntimeError("the in-process class server did not start within 60 s")
    server = InProcessServer(f"http://127.0.0.1:{port}{base_url.rstrip('/')}", Path(data), port,
                             None)  # type: ignore[arg-type]
    server.loop, server.done, server.thread = state["loop"], state["done"], thread  # type: ignore[attr-defined]
    server.server = state["server"]  # type: ignore[attr-defined]
    return server
