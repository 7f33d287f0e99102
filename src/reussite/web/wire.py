"""One socket write per answer.

uvicorn writes an answer's head (status line and headers) as soon as the application sends
it, then the body: two ``send()`` calls, and on the loopback each is delivered to the reader by
the kernel in the writer's time. Under the load test those two writes were about a third of
the server's CPU. :class:`Protocol` is uvicorn's httptools protocol whose transport holds a
response head back until the next write (its body, in the same turn of the event loop) and
sends both at once; a head with nothing after it (a ``HEAD`` answer, a 204, ``100
Continue``) goes out on the next turn of the loop. Nothing else changes: same bytes, same
order.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HeadHoldingTransport:
    """A transport that sends a response head together with the write that follows it."""

    __slots__ = ("_transport", "_loop", "_held")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: bytes | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        held = self._held
        if held is not None:
            self._held = None
            self._transport.write(held + bytes(data))
            return
        if data[:9] == b"HTTP/1.1 " and data[-4:] == b"\r\n\r\n":
            self._held = bytes(data)
            self._loop.call_soon(self._release)
            return
        self._transport.write(data)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def _release(self) -> None:
        held, self._held = self._held, None
        if held is not None and not self._transport.is_closing():
            self._transport.write(held)

    def close(self) -> None:
        self._release()
        self._transport.close()

    def abort(self) -> None:
        self._held = None
        self._transport.abort()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + len(self._held or b"")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class Protocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, writing each answer in one ``send()``."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        held: Any = HeadHoldingTransport(transport, self.loop)
        super().connection_made(held)
