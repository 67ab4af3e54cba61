"""QR codes of the links passed round the table (a club's invite, a game's live view), drawn
here as SVG with segno: no outside service ever sees the link.

The SVG colours its modules with attributes (`stroke`, `fill`), never a `style` attribute, so
the site's CSP (`style-src 'self'`) has nothing to block, and it is served as an image, so the
page's dark colours can't reach it: black on white, in dark mode too, as cameras expect.
"""

from __future__ import annotations

import io

import segno

# The blank margin a reader needs to find the code: four modules, as the QR standard asks.
QUIET_ZONE = 4


def qr_svg(link: str, *, title: str) -> bytes:
    """An SVG document of the QR code for `link`, named `title`, one unit a module.

    Error correction M: about a seventh of the code can be lost to glare or a crease and it
    still reads (segno raises it further when that fits in the same size of code).
    """
    code = segno.make(link, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        border=QUIET_ZONE,
        dark="#000",
        light="#fff",
        title=title,
        svgclass=None,
        lineclass=None,
    )
    return out.getvalue()
