"""Accessibility checks for the browser tests: axe-core scans and tap-target sizes.

axe-core is vendored in tests/browser/vendor/axe.min.js (see README, "Two commands"); it is
never served to users. The site's Content Security Policy refuses inline scripts, so axe is run
by Playwright (`page.evaluate`, which the policy doesn't govern), not added to the page as a
script: the pages are scanned under the policy their users get, and a violation on them fails
the test (tests/browser/conftest.py). A helper module: import what a test needs from it.
"""

from __future__ import annotations

from pathlib import Path

AXE_SOURCE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
# WCAG 2.0, 2.1 and 2.2 at levels A and AA: what issue 5 asks for.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
FAILING_IMPACTS = {"serious", "critical"}
SCHEMES = ["light", "dark"]
TAP_SIZE = 44  # px, WCAG 2.5.5 (AAA) as issue 5 asks
SPACED_SIZE = 24  # px, WCAG 2.5.8 (AA): the floor for the inline-link allowance

_axe_source: str | None = None


def loaded(page) -> None:
    """Wait for the page's load event: the site's scripts are deferred, so a page's HTML can be
    in, and its elements found, before its stylesheets have come. Scanned then, every target
    looks 17 px tall; its user sees nothing until they come."""
    page.wait_for_load_state("load")


def axe_violations(page) -> list[dict]:
    """axe-core's violations of WCAG 2.x A and AA on the page once loaded, all impacts."""
    global _axe_source
    loaded(page)
    if _axe_source is None:
        _axe_source = AXE_SOURCE.read_text(encoding="utf-8")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_axe_source)
    return page.evaluate(
        """tags => axe.run(document, {
                runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
            })
            .then(results => results.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({
                    target: n.target.join(' '), impact: n.impact, summary: n.failureSummary,
                })),
            })))""",
        AXE_TAGS,
    )


def serious_violations(page, name: str) -> list[str]:
    """Readable lines, one per serious or critical violation: where, which rule, what."""
    lines = []
    for violation in axe_violations(page):
        nodes = [n for n in violation["nodes"] if n["impact"] in FAILING_IMPACTS]
        if violation["impact"] not in FAILING_IMPACTS and not nodes:
            continue
        targets = ", ".join(n["target"] for n in nodes[:6])
        more = f" (+{len(nodes) - 6} more)" if len(nodes) > 6 else ""
        lines.append(
            f"{name}: {violation['id']} [{violation['impact']}] {violation['help']} — "
            f"{targets}{more}\n    {nodes[0]['summary'].replace(chr(10), ' ') if nodes else ''}"
        )
    return lines


def assert_accessible(page, name: str) -> None:
    """Fail with the list of serious or critical axe violations on the page, if any."""
    problems = serious_violations(page, name)
    assert not problems, "axe-core found:\n" + "\n".join(problems)


# What counts as a tap target, and when one smaller than 44x44 is allowed (see small_targets).
_TARGETS_JS = """
({tapSize, spacedSize}) => {
  const selector =
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  const describe = (element) => {
    const text = (element.getAttribute('aria-label') || element.textContent || element.value || '')
      .trim().replace(/\\s+/g, ' ').slice(0, 40);
    const id = element.id ? '#' + element.id : '';
    const cls = element.classList.length ? '.' + [...element.classList].join('.') : '';
    return `${element.tagName.toLowerCase()}${id}${cls} "${text}"`;
  };
  // The area a finger can hit: an input wrapped in its <label> is tapped through the label.
  const targetOf = (element) => {
    const label = element.closest('label');
    return (element.matches('input[type=radio], input[type=checkbox]') && label) ? label : element;
  };
  const visible = (element) => {
    const style = getComputedStyle(element);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const box = element.getBoundingClientRect();
    if (box.width <= 1 && box.height <= 1) return false;   // .visually-hidden: clipped to 1px
    if (box.right <= 0 || box.bottom + scrollY <= 0) return false;  // parked off-screen (skip link)
    return element.getClientRects().length > 0;
  };
  // An inline link in running text: display inline, inside a block that has text of its own.
  const inText = (element) => {
    if (element.tagName !== 'A' || getComputedStyle(element).display !== 'inline') return false;
    let block = element.parentElement;
    while (block && getComputedStyle(block).display === 'inline') block = block.parentElement;
    if (!block) return false;
    const own = [...block.childNodes].map((node) =>
      node.nodeType === Node.TEXT_NODE ? node.textContent
        : (node.matches && node.matches('a, button') ? '' : node.textContent)).join('');
    return own.replace(/[\\s·|,.:;—–-]/g, '').length > 0;
  };
  const elements = [...document.querySelectorAll(selector)].filter(visible);
  const boxes = elements.map((element) => {
    const box = targetOf(element).getBoundingClientRect();
    return {element, x: box.left + scrollX, y: box.top + scrollY, w: box.width, h: box.height};
  });
  const undersized = (b) => b.w < spacedSize || b.h < spacedSize;
  const centre = (b) => [b.x + b.w / 2, b.y + b.h / 2];
  const distanceToBox = ([cx, cy], b) => Math.hypot(
    Math.max(b.x - cx, 0, cx - (b.x + b.w)), Math.max(b.y - cy, 0, cy - (b.y + b.h)));
  // WCAG 2.5.8's spacing rule: a 24px circle centred on an undersized target touches no other
  // target, and no other undersized target's circle.
  const spaced = (b) => boxes.every((other) => {
    if (other === b || other.element === b.element) return true;
    const c = centre(b);
    if (distanceToBox(c, other) < spacedSize / 2) return false;
    if (undersized(other)) {
      const [ox, oy] = centre(other);
      if (Math.hypot(c[0] - ox, c[1] - oy) < spacedSize) return false;
    }
    return true;
  });
  const problems = [];
  for (const b of boxes) {
    if (b.w >= tapSize - 0.5 && b.h >= tapSize - 0.5) continue;
    const size = `${Math.round(b.w)}x${Math.round(b.h)}`;
    if (inText(b.element)) {
      if (!undersized(b) || spaced(b)) continue;
      problems.push(`${describe(b.element)} ${size}: an inline link too close to another target`);
    } else {
      problems.push(`${describe(b.element)} ${size}`);
    }
  }
  return problems;
}
"""


def small_targets(page) -> list[str]:
    """The visible tap targets smaller than 44x44 CSS px that no allowance covers.

    Targets are `a[href], button, input, select, textarea, summary, [role=button]`; not counted
    are those hidden, clipped to 1px (`.visually-hidden`, e.g. the deal form's Enter-key
    button, which is `tabindex=-1`) or parked off-screen (the skip link until focused). A radio
    or checkbox inside its <label> is measured by the label, since the whole label takes the tap.

    The one allowance: a link shown inline in running text (`display: inline`, in a block with
    text of its own, as "New here? Sign up — it takes…") is sized by its line of text, which
    WCAG 2.5.5's "Inline" exception permits; it must still meet WCAG 2.2's 2.5.8 (AA): at least
    24x24, or else spaced so that a 24px circle centred on it touches no other target and no
    other undersized target's circle.
    """
    loaded(page)
    return page.evaluate(_TARGETS_JS, {"tapSize": TAP_SIZE, "spacedSize": SPACED_SIZE})


_FOCUS_JS = """
() => {
  const element = document.activeElement;
  if (!element || element === document.body) return null;
  const rgb = (text) => {
    const parts = text.match(/[\\d.]+/g).map(Number);
    return {r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1};
  };
  const luminance = ({r, g, b}) => {
    const channel = (c) => {
      c /= 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  // The outline is drawn outside the element (outline-offset), over what is behind it.
  let behind = null;
  for (let node = element.parentElement; node; node = node.parentElement) {
    const colour = rgb(getComputedStyle(node).backgroundColor);
    if (colour.a > 0) { behind = colour; break; }
  }
  behind = behind || rgb(getComputedStyle(document.documentElement).backgroundColor);
  const style = getComputedStyle(element);
  const [l1, l2] = [luminance(rgb(style.outlineColor)), luminance(behind)].sort((a, b) => b - a);
  const box = element.getBoundingClientRect();
  return {
    what: `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label')
      || element.textContent || element.value || '').trim().replace(/\\s+/g, ' ').slice(0, 30)}"`,
    style: style.outlineStyle,
    width: parseFloat(style.outlineWidth),
    ratio: (l1 + 0.05) / (l2 + 0.05),
    onScreen: box.bottom > 0 && box.right > 0 && box.left < innerWidth && box.top < innerHeight,
  };
}
"""


def focus_problems(page, name: str, presses: int = 80) -> list[str]:
    """Tab through the page: each stop must show a solid outline at least 2px wide whose colour
    stands 3:1 against what is behind it (WCAG 1.4.11 and 2.4.7), and be scrolled into view
    (2.4.11)."""
    problems = []
    seen = set()
    for _ in range(presses):
        page.keyboard.press("Tab")
        focus = page.evaluate(_FOCUS_JS)
        if focus is None:
            break
        if focus["what"] in seen:
            continue
        seen.add(focus["what"])
        if focus["style"] in ("none", "hidden") or focus["width"] < 2:
            problems.append(f"{name}: {focus['what']} shows no focus outline")
        elif focus["ratio"] < 3:
            problems.append(
                f"{name}: {focus['what']}'s focus outline is {focus['ratio']:.2f}:1 against "
                "what is behind it"
            )
        if not focus["onScreen"]:
            problems.append(f"{name}: {focus['what']} is focused off-screen")
    return problems
