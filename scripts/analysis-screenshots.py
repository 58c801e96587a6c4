"""Screenshots of each study's section of a ``meio analyze`` report, for docs/analysis.md.

    .venv/bin/python scripts/analysis-screenshots.py DIR/report.html docs/img

Uses Debian's Chromium through Playwright (``executable_path``, as the web tests do)
and fails if the page logs a console error.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

STUDIES = ("seats", "specials", "skill", "splits", "rules", "length")
#: plots further down a section that the docs show too
MORE = ("rules-skill",)


def main() -> None:
    report, folder = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 900, "height": 1000})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(report.as_uri())
        for study in STUDIES:
            section = page.locator(f"section#{study}")
            if section.count():
                # the heading and the first plot: what a reader sees first
                box = section.bounding_box()
                first = section.locator("figure").first.bounding_box()
                assert box is not None and first is not None
                clip = {"x": box["x"], "y": box["y"], "width": box["width"],
                        "height": first["y"] + first["height"] - box["y"]}
                page.screenshot(path=str(folder / f"analysis-{study}.png"), clip=clip,
                                full_page=True)
        for plot in MORE:
            figure = page.locator(f'figure[data-plot="{plot}"]')
            if figure.count():
                figure.screenshot(path=str(folder / f"analysis-{plot}.png"))
        browser.close()
    if errors:
        raise SystemExit(f"console errors: {errors}")


if __name__ == "__main__":
    main()
