"""Pages rendered once and served many times, with each player's own parts filled in.

A page is the same for every player but for a few parts: the feedback form's token (signed
for one player), the player's unfinished games. Rendering the whole template for each request
costs about a millisecond of the event loop's time; filling a few parts into ready bytes costs
a few microseconds. So a page is rendered once per key (the template, the language, what the
page shows of the request: the caller says) into a :class:`Shared` page: its bytes cut where
the personal parts go. A request then costs the join of those bytes with its own parts.

The personal parts are of two kinds, both found by rendering, so that any template works
unchanged:

- **a personal value** (``personal={"csrf": token}``): in the shared rendering it is a marker,
  wherever the template prints it; each request puts its own value there, escaped as the
  template's autoescape would.
- **a personal block** (a template block whose name starts with ``personal_``, defined in the
  page's own template): the whole block is cut out of the shared rendering and rendered alone
  for each request with the personal values (for example the list of a player's unfinished
  games, which may be empty).

A shared page is compressed once too, for the clients that accept gzip: each shared piece
is deflated on its own (ending on a byte boundary, so the pieces can be joined), and a
request's own parts go between them as stored (uncompressed) blocks, which needs no
compressor; the gzip trailer's checksum is taken over the request's page. A request then
costs a checksum over a few kilobytes, not the compression of the page (a millisecond).

A shared page is kept only once it has proved itself: when it is made, the first request's
page is rendered whole too, and the shared page filled with that request's parts must give
the very same bytes. A template that uses a personal value in a way a marker cannot follow
(through a filter that changes it, in a condition outside a personal block) fails that check;
its page is then rendered (and compressed) whole for every request
(:attr:`PageCache.unshareable` counts such keys, a warning names them), never served wrong.
"""

from __future__ import annotations

import gzip
import json
import logging
import re
import struct
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment, Template
from markupsafe import Markup, escape

PERSONAL_BLOCK = "personal_"
"""The prefix of a block's name that makes it a personal block."""
MAX_PAGES = 512
"""Shared pages kept at most (the site has about a hundred keys: games × languages × notes)."""

GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
"""A gzip member's header: deflate, no name, no time, best compression, any system."""
_MARK = re.compile(rb"\x00(value|block):([A-Za-z_][A-Za-z0-9_]*)\x00")
log = logging.getLogger(__name__)


def _marker(kind: str, name: str) -> str:
    """What stands for a personal part in the shared rendering: NUL characters, which no
    template or text of the site holds, around its kind and name."""
    return f"\x00{kind}:{name}\x00"


def deflated(piece: bytes, last: bool) -> bytes:
    """``piece`` as raw deflate blocks, the last one final (``last``) or followed by an empty
    block that ends on a byte boundary (a full flush: nothing after refers back to it)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    return c.compress(piece) + c.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)


def stored(data: bytes) -> bytes:
    """``data`` as stored (uncompressed) deflate blocks, none final, each starting on a byte:
    its header byte, its length and the length's complement, the bytes."""
    return b"".join(b"\x00" + struct.pack("<HH", len(c), len(c) ^ 0xFFFF) + c
                    for c in (data[i:i + 0xFFFF] for i in range(0, len(data), 0xFFFF)))


def gzipped(page: bytes) -> bytes:
    """A page rendered for one request alone, compressed (the stored page's settings)."""
    return gzip.compress(page, 6, mtime=0)


@dataclass(frozen=True, slots=True)
class Shared:
    """A page as every player gets it, cut where each player's own parts go."""

    pieces: tuple[bytes, ...]
    """The shared bytes: one more piece than parts."""
    parts: tuple[tuple[str, str], ...]
    """Each personal part between two pieces: ``("value", name)`` or ``("block", name)``."""
    template: Template
    context: dict[str, Any]
    """The shared context, for rendering the personal blocks."""
    deflated: tuple[bytes, ...]
    """Each piece deflated (:func:`deflated`), the last one final."""

    @classmethod
    def of(cls, pieces: tuple[bytes, ...], parts: tuple[tuple[str, str], ...],
           template: Template, context: dict[str, Any]) -> Shared:
        last = len(pieces) - 1
        return cls(pieces, parts, template, context,
                   tuple(deflated(p, i == last) for i, p in enumerate(pieces)))

    def own_parts(self, personal: Mapping[str, Any]) -> list[bytes]:
        """The bytes of each personal part for a player whose personal values are these."""
        out = []
        block_context = None
        for kind, name in self.parts:
            if kind == "value":
                out.append(str(escape(personal[name])).encode())
            else:
                if block_context is None:
                    block_context = self.template.new_context({**self.context, **personal})
                out.append("".join(self.template.blocks[name](block_context)).encode())
        return out

    def fill(self, personal: Mapping[str, Any], compressed: bool = False) -> bytes:
        """The page of a player whose personal values are ``personal`` (gzipped:
        ``compressed``)."""
        own = self.own_parts(personal)
        page = [self.pieces[0]]
        for part, piece in zip(own, self.pieces[1:], strict=True):
            page += (part, piece)
        plain = b"".join(page)
        if not compressed:
            return plain
        out = [GZIP_HEADER, self.deflated[0]]
        for part, piece in zip(own, self.deflated[1:], strict=True):
            out += (stored(part), piece)
        out.append(struct.pack("<II", zlib.crc32(plain), len(plain) & 0xFFFFFFFF))
        return b"".join(out)


class PageCache:
    """Shared pages by key, made on first use (see the module's text). Used on one thread
    (the event loop's); a page rendered twice by a race would be the same page."""

    def __init__(self, size: int = MAX_PAGES) -> None:
        self.size = size
        self.pages: dict[tuple[Any, ...], Shared | None] = {}
        """Each key's shared page, or None when the template's page cannot be shared."""

    @property
    def unshareable(self) -> int:
        return sum(1 for page in self.pages.values() if page is None)

    def render(self, env: Environment, name: str, key: tuple[Any, ...],
               shared: Callable[[], dict[str, Any]], personal: Mapping[str, Any],
               compressed: bool = False) -> bytes:
        """The page of template ``name`` for one request: the same bytes as
        ``env.get_template(name).render(**shared(), **personal)``, as UTF-8, gzipped when
        ``compressed``. ``key`` names everything ``shared()`` depends on; ``shared()`` is
        called only when the key's page is made (and for a page that cannot be shared)."""
        full_key = (env, name, *key)
        page = self.pages.get(full_key, False)
        if isinstance(page, Shared):
            return page.fill(personal, compressed)
        if page is None:
            fresh = env.get_template(name).render(**shared(), **personal).encode()
            return gzipped(fresh) if compressed else fresh
        context = shared()
        template = env.get_template(name)
        fresh = template.render(**context, **personal).encode()
        made = self.share(env, template, context, personal)
        kept = made if made.fill(personal) == fresh and \
            gzip.decompress(made.fill(personal, True)) == fresh else None
        if kept is None:
            log.warning("the page %s %r cannot be shared: it is rendered for each request",
                        name, key)
        if len(self.pages) >= self.size:
            self.pages.clear()
        self.pages[full_key] = kept
        if not compressed:
            return fresh
        return gzipped(fresh) if kept is None else kept.fill(personal, True)

    @staticmethod
    def share(env: Environment, template: Template, context: dict[str, Any],
              personal: Mapping[str, Any]) -> Shared:
        """``template`` rendered with markers for the personal values and blocks, cut at them."""
        blocks = [b for b in template.blocks if b.startswith(PERSONAL_BLOCK)]
        marked = template
        if blocks:
            marked = env.from_string(
                "{% extends " + json.dumps(template.name) + " %}" + "".join(
                    f"{{% block {b} %}}{_marker('block', b)}{{% endblock %}}" for b in blocks))
        markers = {k: Markup(_marker("value", k)) for k in personal}
        cut = _MARK.split(marked.render(**context, **markers).encode())
        return Shared.of(tuple(cut[0::3]),
                         tuple((k.decode(), n.decode())
                               for k, n in zip(cut[1::3], cut[2::3], strict=True)),
                         template, context)
