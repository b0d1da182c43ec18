"""What a kiosk's screen must be at every step (issue 30, 5): the whole step on screen without a
vertical scroll, every button big enough for a finger, and the taps a round takes, counted."""

from __future__ import annotations

from pathlib import Path

SIZES = [(1280, 800), (1024, 600), (800, 480)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
SMALLEST_TARGET = 44   # px: the least touch target (the stylesheet aims at 64 where space allows)

_MEASURE = """() => {
  const shown = (el) => el.offsetParent !== null || getComputedStyle(el).position === "fixed";
  const small = [...document.querySelectorAll("button")].filter((b) => shown(b) && !b.closest("[hidden]"))
    .map((b) => { const r = b.getBoundingClientRect();
      return [b.textContent.trim().slice(0, 40), Math.round(r.height), Math.round(r.width)]; })
    .filter(([, h, w]) => h < MIN || w < MIN);
  const open = document.querySelector("dialog[open]");
  const box = open ? open.getBoundingClientRect() : null;
  return { scroll: document.scrollingElement.scrollHeight, inner: window.innerHeight, small,
           dialog: box ? [Math.round(box.top), Math.round(box.bottom)] : null,
           dialogScroll: open ? [open.scrollHeight, open.clientHeight] : null };
}""".replace("MIN", str(SMALLEST_TARGET))


def misfits(page, where: str, scroll: bool = True) -> tuple[dict, list[str]]:
    """The page as it is now, measured, and what is wrong with it: a vertical scroll (unless not
    `scroll`: a long page, as the supervisor's), a button under 44 px, an open dialog off the screen."""
    m = page.evaluate(_MEASURE)
    wrong = []
    if scroll and m["scroll"] > m["inner"] + 1:
        wrong.append(f"{where}: the page scrolls ({m['scroll']} px of content, {m['inner']} shown)")
    if m["small"]:
        wrong.append(f"{where}: buttons under {SMALLEST_TARGET} px: {m['small']}")
    if m["dialog"] is not None:
        top, bottom = m["dialog"]
        if top < 0 or bottom > m["inner"] + 1:
            wrong.append(f"{where}: the dialog runs off the screen: {m['dialog']}")
        if m["dialogScroll"][0] > m["dialogScroll"][1] + 1:
            wrong.append(f"{where}: the dialog scrolls: {m['dialogScroll']}")
    return m, wrong


def fits(page, where: str, scroll: bool = True) -> dict:
    """The page as it is now: no vertical scroll (unless `scroll`: a long page, as the supervisor's),
    no button under 44 px, an open dialog inside the screen."""
    m, wrong = misfits(page, where, scroll)
    assert not wrong, "; ".join(wrong)
    return m


class Taps:
    """The dealer's finger: every tap is a click on the page, counted; a step is checked and shot."""

    def __init__(self, page, shots: Path, name: str) -> None:
        self.page, self.shots, self.name, self.count = page, shots, name, 0

    def __call__(self, selector: str) -> None:
        self.count += 1
        self.page.click(selector)

    def step(self, label: str) -> None:
        self.page.screenshot(path=self.shots / f"{self.name}-{label}.png")
        fits(self.page, f"{self.name} {label}")
