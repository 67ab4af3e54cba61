"""Fixtures for the hand pages' tests: reading their HTML as a person sees it."""

import re
from collections.abc import Callable

import pytest


def _text_of(html: str) -> str:
    html = re.sub(r'<span class="visually-hidden">.*?</span>', "", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _pressed(html: str, code: str) -> bool:
    button = re.search(rf'<button[^>]*id="pick-{code}"[^>]*>', html, re.DOTALL)
    assert button is not None
    return 'aria-pressed="true"' in button[0]


@pytest.fixture
def text_of() -> Callable[[str], str]:
    """The words a sighted reader sees: tags and screen-reader-only names dropped."""
    return _text_of


@pytest.fixture
def pressed() -> Callable[[str, str], bool]:
    """Whether the picker shows that card (by code, "9S") as picked into the hand being filled."""
    return _pressed
