"""Render the app icons in static/icons/ from one SVG, with the system Chromium.

    .venv/bin/python tools/make_icons.py

The design is the favicon's (static/img/favicon.svg): a white "2♠" card on card-table green.
Each PNG is a headless screenshot at its exact pixel size, so no imaging library is needed.
The same Chromium and fonts (DejaVu Sans, Debian's default sans-serif) give the same bytes;
the PNGs are committed, so this only needs running again when the design changes.
"""

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "icons"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"

GREEN = "#0b5d3b"


@dataclass(frozen=True)
class Icon:
    name: str
    size: int
    full_bleed: bool  # a square to the edges, not the favicon's rounded one
    card_scale: float  # the card's size relative to the favicon's


ICONS = [
    # Purpose "any": the favicon as it is, corners transparent.
    Icon("icon-192.png", 192, full_bleed=False, card_scale=1.0),
    Icon("icon-512.png", 512, full_bleed=False, card_scale=1.0),
    # Purpose "maskable": the launcher crops to any shape containing the centre circle of
    # 80% diameter, so the background fills the square and the card (half-diagonal 24 of 64
    # units at 0.8) stays inside that circle (radius 25.6).
    Icon("maskable-512.png", 512, full_bleed=True, card_scale=0.8),
    # iOS rounds the corners itself and shows transparency as black: fill the square.
    Icon("apple-touch-icon.png", 180, full_bleed=True, card_scale=1.0),
]


def svg(icon: Icon) -> str:
    corner = 0 if icon.full_bleed else 12
    s = icon.card_scale
    # The favicon's card and text, scaled about the centre (32, 32) of the 64-unit box.
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" '
        f'width="{icon.size}" height="{icon.size}">'
        f'<rect width="64" height="64" rx="{corner}" fill="{GREEN}"/>'
        f'<g transform="translate(32 32) scale({s}) translate(-32 -32)">'
        '<rect x="14" y="8" width="36" height="48" rx="5" fill="#fff"/>'
        '<text x="32" y="40" font-family="DejaVu Sans, sans-serif" font-size="22" '
        'font-weight="700" text-anchor="middle" fill="#1b1b1b">2♠</text>'
        "</g></svg>"
    )


def page_html(icon: Icon) -> str:
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        "<style>html,body{margin:0;padding:0;background:transparent}"
        "svg{display:block}</style></head>"
        f"<body>{svg(icon)}</body></html>"
    )


def main() -> int:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"Chromium not found at {CHROMIUM}; set CHROMIUM=/path/to/chromium", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        for icon in ICONS:
            page = browser.new_page(
                viewport={"width": icon.size, "height": icon.size}, device_scale_factor=1
            )
            page.set_content(page_html(icon))
            path = OUT / icon.name
            page.screenshot(path=str(path), omit_background=True)
            page.close()
            print(f"{path.relative_to(ROOT)} ({icon.size}x{icon.size})")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
