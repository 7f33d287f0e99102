"""One socket write per answer.

uvicorn writes an answer's head (status line and headers) as soon as the application sends
it, then the body: two ``send()`` calls, and on the loopback each is delivered to the reader by
the kernel in the writer's time. Under the load test those two writes were about a third of
the server's CPU. :class:`Protocol` is uvicorn's httptools protocol whose transport holds a
response head back until the next write (its body, in the same turn of the event loop) and
sends both at once; a head with nothing after it (a ``HEAD`` answer, a 204, ``100
Continue``) goes out on the next turn of the loop. Nothing else changes: same bytes, same
order.

The same protocol guards the connections, before any byte reaches the application:

- **Header size**: a request line and headers larger than ``REUSSITE_MAX_HEADER_BYTES``
  (16,384 bytes) are answered 431 and the connection closed; the parser never holds more
  than that (plus one read) for a request's head.
- **Deadlines**: a connection's first request must have sent its headers within
  ``REUSSITE_HEADER_TIMEOUT`` seconds (10) of opening, and every later request within as
  long of its first byte; a body must be whole within ``REUSSITE_BODY_TIMEOUT`` seconds (20)
  of its headers. Past a deadline the connection is closed. An idle kept-alive connection is
  closed by uvicorn after its ``timeout_keep_alive`` (5 s). The deadlines are checked once a
  second for every connection (a timer armed and cancelled for every request would cost
  more than the check).
- **Connections per address**: at most ``REUSSITE_MAX_CONNECTIONS_PER_ADDRESS`` (64) open
  at once from one client address; one more is closed at once. The addresses of trusted
  proxies (:func:`~reussite.web.ratelimit.trusted_proxies`) are not capped: a proxy
  carries many clients' connections.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from reussite.web.i18n import N_, lang_of, translate
from reussite.web.ratelimit import trusted_proxies

MAX_HEADER_BYTES = 16 * 1024
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 20.0
MAX_CONNECTIONS_PER_ADDRESS = 64
SWEEP_EVERY = 1.0
"""How often the deadlines are checked (seconds): a deadline holds within this."""


def _env_number(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    try:
        return float(value) if value else default
    except ValueError:
        raise ValueError(f"{name} must be a number, not {value!r}") from None


def _networks(text: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    out = []
    for item in text.split(","):
        if item:
            try:
                out.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ValueError(f"REUSSITE_TRUSTED_PROXIES: not an address: {item!r}"
                                 ) from None
    return out


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


class _HeadTooLarge(Exception):
    """Raised in the parser's callbacks: the request's head passed the limit."""


class Guard:
    """The connection rules (see the module's text), read from the environment once a process,
    and the open connections they watch."""

    def __init__(self) -> None:
        self.max_head = int(_env_number("REUSSITE_MAX_HEADER_BYTES", MAX_HEADER_BYTES))
        self.header_timeout = _env_number("REUSSITE_HEADER_TIMEOUT", HEADER_TIMEOUT)
        self.body_timeout = _env_number("REUSSITE_BODY_TIMEOUT", BODY_TIMEOUT)
        self.per_address = int(_env_number("REUSSITE_MAX_CONNECTIONS_PER_ADDRESS",
                                           MAX_CONNECTIONS_PER_ADDRESS))
        self.trusted = _networks(trusted_proxies())
        self.open: set[Protocol] = set()
        self.by_address: Counter[str] = Counter()
        self._sweeping = False

    def is_trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def admit(self, conn: Protocol, loop: asyncio.AbstractEventLoop) -> bool:
        """Count a new connection in; False if its address has too many open already."""
        address = conn.client[0] if conn.client else ""
        # No address (a Unix socket): a local proxy's connections, not capped.
        if address and self.by_address[address] >= self.per_address \
                and not self.is_trusted(address):
            return False
        self.by_address[address] += 1
        conn.address = address
        self.open.add(conn)
        if not self._sweeping:
            self._sweeping = True
            loop.call_later(SWEEP_EVERY, self._sweep, loop)
        return True

    def leave(self, conn: Protocol) -> None:
        if conn.address is not None:
            self.open.discard(conn)
            self.by_address[conn.address] -= 1
            if self.by_address[conn.address] <= 0:
                del self.by_address[conn.address]
            conn.address = None

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        """Close the connections past their deadline; again in a second while any is open."""
        now = loop.time()
        for conn in [c for c in self.open if 0 < c.deadline < now]:
            conn.deadline = 0.0
            conn.transport.close()
        if self.open:
            loop.call_later(SWEEP_EVERY, self._sweep, loop)
        else:
            self._sweeping = False


_guard: Guard | None = None


def guard(reload: bool = False) -> Guard:
    """This process's :class:`Guard`: made at the first connection, or now with ``reload``
    (``reussite serve`` reads the settings before serving)."""
    global _guard
    if _guard is None or reload:
        _guard = Guard()
    return _guard


class Protocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, writing each answer in one ``send()``, its connection
    guarded by :class:`Guard`."""

    rules: Guard
    address: str | None = None
    """The client address this connection is counted under (None: not counted)."""
    deadline = 0.0
    """When the current phase (a request's head, its body) must be over (the loop's clock;
    0: no deadline, the application has the request)."""
    head_bytes: int | None = None
    """Bytes received so far of the current request's head (None: not reading a head)."""
    head_size = 0
    """The current request's line and headers as parsed so far, in bytes."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        held: Any = HeadHoldingTransport(transport, self.loop)
        super().connection_made(held)
        rules = self.rules = guard()
        if not rules.admit(self, self.loop):
            transport.close()
            return
        self.head_bytes = 0
        self.deadline = self.loop.time() + rules.header_timeout

    def connection_lost(self, exc: Exception | None) -> None:
        guard().leave(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.head_bytes is not None:
            self.head_bytes += len(data)
        super().data_received(data)
        if self.head_bytes is not None and self.head_bytes > self.rules.max_head \
                and not self.transport.is_closing():
            self.refuse_head()  # a head still incomplete, already too large

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_size = 0
        if self.head_bytes is None:
            self.head_bytes = 0
        if not self.deadline:
            self.deadline = self.loop.time() + self.rules.header_timeout

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self.head_size += len(url)
        if self.head_size > self.rules.max_head:
            raise _HeadTooLarge  # uvicorn answers a parser's error with send_400_response

    def on_header(self, name: bytes, value: bytes) -> None:
        super().on_header(name, value)
        self.head_size += len(name) + len(value) + 4
        if self.head_size > self.rules.max_head:
            raise _HeadTooLarge

    def on_headers_complete(self) -> None:
        self.head_bytes = None
        self.deadline = self.loop.time() + self.rules.body_timeout
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self.deadline = 0.0
        self.head_bytes = 0  # the next request's head may follow at once (pipelining)
        super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        if self.head_size > self.rules.max_head:
            self.refuse_head()  # the parser stopped on _HeadTooLarge
            return
        super().send_400_response(msg)

    def refuse_head(self) -> None:
        """431, in the client's language if its headers said it before the limit."""
        lang = lang_of(self.headers or ())
        body = translate(lang, N_("The request headers are too large")).encode()
        self.head_bytes = None
        self.deadline = 0.0
        self.transport.write(b"".join([
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n",
            b"content-type: text/plain; charset=utf-8\r\n",
            b"content-length: ", str(len(body)).encode(), b"\r\n",
            b"connection: close\r\n\r\n", body]))
        self.transport.close()
