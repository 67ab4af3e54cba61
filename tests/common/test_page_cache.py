"""Pages kept with holes (common/page_cache.py): each request's values in each hole, the page
rendered once, and a copy with other holes than the code now fills made anew."""

from django.core.cache import cache

from common.page_cache import page_with_holes


def test_the_page_is_rendered_once_and_each_request_fills_its_holes():
    renders = []

    def render(markers):
        renders.append(markers)
        return f"<p>{markers['name']} / {markers['name']} / {markers['token']}</p>", "page"

    tokens = iter(["t1", "t2"])
    fills = {"name": lambda: "Ann", "token": lambda: next(tokens)}
    assert page_with_holes("page", render, fills) == "<p>Ann / Ann / t1</p>"
    assert page_with_holes("page", render, fills) == "<p>Ann / Ann / t2</p>"
    assert len(renders) == 1


def test_a_hole_the_page_lacks_is_not_asked_for():
    def fill_nothing():
        raise AssertionError("a hole the page doesn't have was filled")

    assert page_with_holes(
        "plain", lambda markers: ("<p>plain</p>", "plain"), {"x": fill_nothing}
    ) == ("<p>plain</p>")


def test_a_copy_with_other_holes_is_made_anew():
    cache.set("page", ("<p>old abc</p>", {"old": "abc"}))
    page = page_with_holes(
        "page", lambda markers: (f"<p>new {markers['new']}</p>", "page"), {"new": lambda: "1"}
    )
    assert page == "<p>new 1</p>"


def test_a_page_newer_than_its_key_is_kept_under_its_own():
    renders = []

    def render(markers):
        renders.append(markers)
        return "<p>version 2</p>", "page:2"

    assert page_with_holes("page:1", render, {}) == "<p>version 2</p>"
    assert page_with_holes("page:2", render, {}) == "<p>version 2</p>"
    assert len(renders) == 1
