"""The pages of getting back in and of one's own account, opened in turn for the accessibility
sweep (tests/browser/test_accessibility.py), in either language: every step finds what it taps
by id, name or place, never by its words.

A helper module: `account_pages(page, site)` yields a name for each page, signed in as the
site's owner (sam) when it starts; it leaves the phone signed out.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings
from playwright.sync_api import expect

from scoring import services
from tests.browser.phone import log_in
from tests.factories import OUTBOX_MAILERS, make_member

NEW_PASSWORD = "kim's new passphrase 3"


def submit(page, form: str = "main form") -> None:
    """Send the page's form as it is, past the browser's own checks, to see the server's."""
    button = page.locator(f"{form} button[type=submit]").first
    button.evaluate("b => { b.form.noValidate = true; }")
    button.click()


def choose(page, first: str, second: str) -> None:
    page.locator("#id_new_password1").fill(first)
    page.locator("#id_new_password2").fill(second)
    submit(page)


def reset_link_button(page, club, member):
    membership = club.memberships.get(user=member)
    return page.locator(f"form[action$='/members/{membership.pk}/reset-link/'] button")


def account_pages(page, site) -> Iterator[str]:
    club, sam = site["club"], site["sam"]
    kim = make_member(club, "kim")
    lee = make_member(club, "lee")  # also in Olga's club: no link from sam
    services.join_club(token=site["other_club"].invite_token, user=lee)

    log_in(page, sam, site["url"])
    page.goto(f"/clubs/{club.pk}/")
    expect(reset_link_button(page, club, kim)).to_be_visible()
    yield "club members, with password reset links"
    reset_link_button(page, club, lee).click()
    expect(page.locator(".form-errors")).to_be_visible()
    yield "password reset link, refused"
    page.goto(f"/clubs/{club.pk}/")
    reset_link_button(page, club, kim).click()
    link = page.locator("#reset-link").input_value()
    yield "password reset link made"

    page.goto(link)
    expect(page.locator("#id_new_password1")).to_be_visible()
    yield "choose a new password (owner's link)"
    choose(page, NEW_PASSWORD, "something else")
    expect(page.locator(".errorlist").first).to_be_visible()
    yield "choose a new password, refused"
    choose(page, NEW_PASSWORD, NEW_PASSWORD)
    expect(page).to_have_url(f"{site['url']}/accounts/password/done/")
    yield "password set"
    page.goto(link)
    yield "password link that doesn't work"

    # Opened while it worked, then spent on another phone: told so at the form.
    kim = get_user_model().objects.get(pk=kim.pk)  # with the password just set
    fresh = services.make_reset_link(club=club, member=kim, by=sam)
    page.goto(f"/accounts/password/link/{club.pk}/{fresh.uidb64}/{fresh.token}/")
    expect(page.locator("#id_new_password1")).to_be_visible()
    kim.set_password("set on the other phone 6")
    kim.save()
    choose(page, NEW_PASSWORD, NEW_PASSWORD)
    expect(page.locator("[role=alert]")).to_be_visible()
    yield "password link used a moment ago"

    page.goto("/accounts/password/")
    yield "change password"
    submit(page)
    expect(page.locator(".errorlist").first).to_be_visible()
    yield "change password, refused"
    page.goto("/accounts/delete/")
    yield "delete my account, refused: sam runs clubs"
    log_in(page, lee, site["url"])
    page.goto("/accounts/delete/")
    yield "delete my account"
    page.locator("#id_password").fill("not the password")
    submit(page)
    expect(page.locator(".errorlist")).to_be_visible()
    yield "delete my account, wrong password"

    yield from emailed_link_pages(page, kim)


def emailed_link_pages(page, kim) -> Iterator[str]:
    """Where the site sends email: "Forgot your password?", the link it mails, sign-up."""
    kim.email = "kim@example.org"
    kim.save()
    page.context.clear_cookies(name=settings.SESSION_COOKIE_NAME)  # signed out, same language
    with override_settings(SITE_SENDS_EMAIL=True, MAILERS=OUTBOX_MAILERS):
        page.goto("/accounts/login/")
        expect(page.locator("a[href='/accounts/password/forgot/']")).to_be_visible()
        yield "log in, with forgot your password"
        page.goto("/accounts/password/forgot/")
        yield "forgot your password"
        page.locator("#id_email").fill("kim at home")
        submit(page)
        expect(page.locator(".errorlist")).to_be_visible()
        yield "forgot your password, refused"
        page.locator("#id_email").fill("kim@example.org")
        submit(page)
        expect(page).to_have_url(
            f"{page.url.split('/accounts/')[0]}/accounts/password/forgot/sent/"
        )
        yield "forgot your password, sent"
        link = next(
            word for word in mail.outbox[-1].body.split() if "/accounts/password/reset/" in word
        )
        page.goto(link)
        expect(page.locator("#id_new_password1")).to_be_visible()
        yield "choose a new password (emailed link)"
        page.goto("/accounts/signup/")
        page.locator("#id_email").fill("not an address")
        submit(page)
        expect(page.locator(".errorlist").first).to_be_visible()
        yield "sign up with an email, refused"
