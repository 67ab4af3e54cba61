"""Reading the hand pages' HTML in tests: the text a reader sees, and the picker's state."""

import re


def text_of(html: str) -> str:
    """The words a sighted reader sees: tags and screen-reader-only names dropped."""
    html = re.sub(r'<span class="visually-hidden">.*?</span>', "", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def pressed(html: str, code: str) -> bool:
    """Whether the picker shows that card as picked into the hand being filled."""
    button = re.search(rf'<button[^>]*id="pick-{code}"[^>]*>', html, re.DOTALL)
    assert button is not None
    return 'aria-pressed="true"' in button[0]
