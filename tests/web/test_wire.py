"""web/wire.py: an answer's head goes out with the write that follows it, in order."""

from __future__ import annotations

import asyncio
from typing import Any

from webtools import run_async

from reussite.web.wire import HeadHoldingTransport


class Recorder:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        assert not self.closed
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str) -> Any:
        return f"info:{name}"


HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n"


def test_a_head_and_its_body_are_one_write_and_a_lone_head_goes_out_on_the_next_turn() -> None:
    async def scenario() -> list[list[bytes]]:
        raw = Recorder()
        t: Any = HeadHoldingTransport(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        seen = []
        t.write(HEAD)
        t.write(b"{}")
        seen.append(list(raw.writes))
        t.write(HEAD)  # a head alone (HEAD request, 204): released on the next turn
        seen.append(list(raw.writes))
        await asyncio.sleep(0)
        seen.append(list(raw.writes))
        t.write(b"not a head")
        t.write(HEAD)
        t.close()  # a held head is sent before the connection closes
        seen.append(list(raw.writes))
        assert t.get_extra_info("peername") == "info:peername"
        return seen

    one, held, released, closed = run_async(scenario())
    assert one == [HEAD + b"{}"]
    assert held == one
    assert released == [HEAD + b"{}", HEAD]
    assert closed == [HEAD + b"{}", HEAD, b"not a head", HEAD]
