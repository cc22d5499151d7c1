"""Draw the web app's PNG icons from ``static/icons/icon.svg`` with Debian's chromium.

The manifest (``static/manifest.webmanifest``) names a 192 and a 512 pixel PNG, which
phones use on the home screen, and the SVG itself for every other size. Run this after
changing the SVG; the PNGs are committed, so nothing draws them at install or run time::

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "src" / "cardtable" / "server" / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main() -> None:
    """Write icon-192.png and icon-512.png beside icon.svg."""
    svg = (ICONS / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                "<html><body style='margin:0'>"
                f"<div style='width:{size}px;height:{size}px'>"
                + svg.replace("<svg ", f"<svg width='{size}' height='{size}' ", 1)
                + "</div></body></html>"
            )
            page.screenshot(path=str(ICONS / f"icon-{size}.png"))
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
