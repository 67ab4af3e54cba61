"""Pages kept with holes (common/page_cache.py): each request's values in each hole, the page
rendered once, and a copy with other holes than the code now fills made anew."""

from django.core.cache import caches

from common.page_cache import page_with_holes


def test_the_page_is_rendered_once_and_each_request_fills_its_holes():
    renders = []

    def render(markers):
        renders.append(markers)
        return f"<p>{markers['name']} / {markers['name']} / {markers['token']}</p>", "page"

    tokens = iter(["t1", "t2"])
    fills = {"name": lambda _: "Ann", "token": lambda _: next(tokens)}
    assert page_with_holes("page", render, fills) == "<p>Ann / Ann / t1</p>"
    assert page_with_holes("page", render, fills) == "<p>Ann / Ann / t2</p>"
    assert len(renders) == 1


def test_a_hole_the_page_lacks_is_not_asked_for():
    def fill_nothing(_):
        raise AssertionError("a hole the page doesn't have was filled")

    assert page_with_holes(
        "plain", lambda markers: ("<p>plain</p>", "plain"), {"x": fill_nothing}
    ) == ("<p>plain</p>")


def test_a_copy_with_other_holes_is_made_anew():
    caches["rendered"].set("page", ("<p>old abc</p>", {"old": "abc"}))
    page = page_with_holes(
        "page", lambda markers: (f"<p>new {markers['new']}</p>", "page"), {"new": lambda _: "1"}
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


def test_keys_read_along_with_the_page_are_given_to_each_fill():
    caches["shared"].set("series:ann", "s1")
    render = lambda markers: (f"<p>{markers['pass']}</p>", "page")  # noqa: E731
    fills = {"pass": lambda found: f"pass-{found.get('series:ann', 'none')}"}
    assert page_with_holes("page", render, fills, read_along=["series:ann"]) == "<p>pass-s1</p>"
    assert page_with_holes("page", render, fills, read_along=["series:bo"]) == "<p>pass-none</p>"
