"""DJANGO_EMAIL_URL: one address for the mail server, read into Django's MAILERS; a mistake
stops the server with a sentence that says what to write (and never shows the password)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from bigtwo_site.email_url import mailer
from tests.fresh_settings import prepare_var

ROOT = Path(__file__).resolve().parents[2]
SMTP = "django.core.mail.backends.smtp.EmailBackend"


def test_smtp_with_starttls_and_a_password_with_an_at_sign():
    assert mailer("smtp://club%40example.org:s%40cret@mail.example.org:587?tls=1") == {
        "BACKEND": SMTP,
        "OPTIONS": {
            "host": "mail.example.org",
            "port": 587,
            "username": "club@example.org",
            "password": "s@cret",
            "use_tls": True,
            "use_ssl": False,
            "timeout": None,
        },
    }


def test_smtps_is_tls_from_the_start_on_port_465():
    options = mailer("smtps://ann:pw@mail.example.org?timeout=10")["OPTIONS"]
    assert (options["port"], options["use_ssl"], options["use_tls"]) == (465, True, False)
    assert options["timeout"] == 10


def test_plain_smtp_to_a_local_server_needs_no_login():
    options = mailer("smtp://localhost")["OPTIONS"]
    assert (options["host"], options["port"], options["username"]) == ("localhost", 25, "")


def test_console_prints_the_mail_instead():
    assert mailer("console://") == {"BACKEND": "django.core.mail.backends.console.EmailBackend"}


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("mail.example.org", "starts with nothing"),
        ("imap://ann:pw@mail.example.org", "starts with imap://"),
        ("smtp://ann:pw@:587", "names no mail server"),
        ("smtp://ann:pw@mail.example.org:port", "has a port that isn't a number"),
        ("smtp://ann:pw@mail.example.org?ssl=1", "options it doesn't know: ssl"),
        ("smtp://ann:pw@mail.example.org?tls=maybe", "has tls=maybe"),
        ("smtps://ann:pw@mail.example.org?tls=1", "which is TLS already"),
        ("smtp://ann:pw@mail.example.org?timeout=soon", "has timeout=soon"),
    ],
)
def test_a_mistake_is_named_without_showing_the_password(url, problem):
    with pytest.raises(ImproperlyConfigured) as refused:
        mailer(url)
    assert problem in str(refused.value)
    assert "smtp://USER:PASSWORD@HOST:587?tls=1" in str(refused.value)
    assert ":pw" not in str(refused.value)


def settings_with(env: dict[str, str], tmp_path) -> subprocess.CompletedProcess:
    """Load the site's settings in a fresh process with `env`, printing what email reads."""
    script = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.SITE_SENDS_EMAIL, getattr(s, 'MAILERS', None), s.DEFAULT_FROM_EMAIL]))"
    )
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_EMAIL", "DJANGO_ALL"))
    }
    clean |= {"DJANGO_SETTINGS_MODULE": "bigtwo_site.settings", "DJANGO_VAR_DIR": str(tmp_path)}
    prepare_var(clean)
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_site_reads_its_mail_server_from_the_environment(tmp_path):
    result = settings_with(
        {
            "DJANGO_EMAIL_URL": "smtp://ann:pw@mail.example.org:587?tls=1",
            "DJANGO_ALLOWED_HOSTS": "bigtwo.example.org",
        },
        tmp_path,
    )
    sends, mailers, sender = json.loads(result.stdout)
    assert sends is True
    assert mailers["default"]["OPTIONS"]["host"] == "mail.example.org"
    assert sender == "Big Two <noreply@bigtwo.example.org>"
    assert json.loads(settings_with({}, tmp_path).stdout)[:2] == [False, None]


def test_mailing_links_needs_the_sites_own_host_name(tmp_path):
    """With ALLOWED_HOSTS "*", a forged Host header would make the site mail a member a live
    link to the forger's server: the server won't start so."""
    result = settings_with({"DJANGO_EMAIL_URL": "console://"}, tmp_path)
    assert result.returncode != 0
    assert "set DJANGO_ALLOWED_HOSTS to the site's own name" in result.stderr
