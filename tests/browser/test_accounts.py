"""Getting back in, on phones at 390x844: an owner's password link handed to a member, the
emailed link where the site sends email, changing one's password, deleting one's account."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from tests.browser.phone import log_in, screenshot
from tests.factories import OUTBOX_MAILERS, PASSWORD, make_club, make_member, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "kim's new passphrase 3"


def fits_the_phone(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page.url} is {width}px wide on a 390px phone"


def log_in_with_the_form(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_a_member_gets_back_in_with_the_owners_link(phone, phone_without_js, live_server):
    """Sam makes Kim a link on the members list; Kim opens it on a phone without JavaScript,
    chooses a password and logs in with it; the link is spent."""
    sam = make_user("sam")
    club = make_club(sam, name="Friday table")
    make_member(club, "kim")
    owner = phone
    log_in(owner, sam, live_server.url)
    owner.goto(f"/clubs/{club.pk}/")
    members = owner.locator(".member-list")
    expect(members.get_by_role("button", name="Password reset link")).to_have_count(1)
    screenshot(owner, "club-members")
    members.get_by_role("button", name="Password reset link for kim").click()
    expect(owner.get_by_role("heading", level=1)).to_have_text("Password reset link for kim")
    link = owner.get_by_label("The link").input_value()
    assert re.fullmatch(rf"{live_server.url}/accounts/password/link/\d+/\w+/[\w-]+/", link)
    fits_the_phone(owner)
    screenshot(owner, "reset-link-made")

    kim = phone_without_js
    kim.goto(link)
    expect(kim).to_have_url(re.compile(r"/set-password/$"))  # the token is out of the address
    expect(kim.get_by_role("heading", level=1)).to_have_text("Choose a new password")
    expect(kim.get_by_text("sam, who runs Friday table, made this link for kim.")).to_be_visible()
    fits_the_phone(kim)
    screenshot(kim, "reset-link-opened")
    kim.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    kim.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    kim.get_by_role("button", name="Set password").click()
    expect(kim.get_by_role("heading", level=1)).to_have_text("Your password is set")
    screenshot(kim, "password-set")
    kim.get_by_role("link", name="Log in").last.click()
    log_in_with_the_form(kim, "kim", NEW_PASSWORD)
    expect(kim).to_have_url(re.compile(r"/clubs/$"))
    expect(kim.get_by_role("link", name=re.compile("Friday table"))).to_be_visible()

    kim.goto(link)
    expect(kim.get_by_role("heading", level=1)).to_have_text("This link doesn't work")
    screenshot(kim, "reset-link-spent")


def test_forgot_your_password_by_email(phone, live_server, settings):
    settings.SITE_SENDS_EMAIL = True
    settings.MAILERS = OUTBOX_MAILERS
    kim = make_user("kim")
    kim.email = "kim@example.org"
    kim.save()
    page = phone
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Forgot your password?")
    screenshot(page, "forgot-password")
    page.get_by_label("Email").fill("kim@example.org")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your email")
    screenshot(page, "forgot-password-sent")

    (message,) = mail.outbox
    link = re.search(r"http://\S+/accounts/password/reset/\S+/", message.body)[0]
    page.goto(link)
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your password is set")
    log_in_with_the_form(page, "kim", NEW_PASSWORD)
    expect(page).to_have_url(re.compile(r"/clubs/$"))

    page.goto("/accounts/signup/")
    expect(page.get_by_label("Email (optional)")).to_be_visible()
    screenshot(page, "signup-with-email")


def test_change_my_password_then_delete_my_account(phone, live_server):
    sam = make_user("sam")
    club = make_club(sam, name="Friday table")
    kim = make_member(club, "kim")
    page = phone
    log_in(page, kim, live_server.url)
    page.goto("/clubs/")
    screenshot(page, "my-clubs-account")
    page.get_by_role("link", name="Change password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Change password")
    page.get_by_label("Old password").fill("not it")
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change password").click()
    expect(page.locator(".errorlist")).to_contain_text("Your old password was entered incorrectly")
    fits_the_phone(page)
    screenshot(page, "change-password-refused")
    page.get_by_label("Old password").fill(PASSWORD)
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("status")).to_contain_text("Your password is changed.")

    page.get_by_role("link", name="Delete my account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Delete my account")
    screenshot(page, "delete-account")
    page.get_by_label("Your password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_role("status")).to_contain_text("Your account is deleted.")
    expect(page.get_by_role("link", name="Log in").first).to_be_visible()

    log_in(page, sam, live_server.url)
    page.goto("/accounts/delete/")
    expect(page.get_by_role("link", name="Friday table")).to_be_visible()
    expect(page.get_by_role("button", name="Delete my account")).to_have_count(0)
    screenshot(page, "delete-account-refused")
