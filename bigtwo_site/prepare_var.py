"""The set-up step: makes what the settings read in the var directory, which they never write.

`python manage.py prepare_var` (`make setup` runs it before `migrate`, as the pages' unit
does before its own): DJANGO_VAR_DIR (else `var/`) made mode 700, a secret key kept in it unless
DJANGO_SECRET_KEY gives one, and the SQLite database file, mode 600, unless DATABASE_URL names
another database. It runs before the settings can load (manage.py runs it without Django's
command machinery, which loads them), so it reads the environment as they do
(bigtwo_site/var_dir.py, bigtwo_site/databases.py) without them. Run again, it keeps what is
there, the key above all, and makes private what others could read; it refuses, as the settings
do, a directory another user owns or others may write in.
"""

from __future__ import annotations

import os
import secrets
import stat
import sys
import tempfile
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from bigtwo_site.databases import database_url, sqlite_file
from bigtwo_site.environment import env_text
from bigtwo_site.var_dir import misconfigured, unsafe_mode, var_dir_location


def prepare() -> list[Path]:
    """Make what is missing of the var directory, its secret key and database; what it made."""
    var_dir = var_dir_location()
    made = [var_dir] if made_private_dir(var_dir) else []
    if not env_text("DJANGO_SECRET_KEY") and made_secret_key(var_dir / "secret_key"):
        made.append(var_dir / "secret_key")
    database = sqlite_file(database_url(var_dir))
    if database is not None and made_private_file(database):
        made.append(database)
    return made


def made_private_dir(path: Path) -> bool:
    """`path` a directory of this user's alone, mode 700; whether it was missing."""
    try:
        path.mkdir(mode=0o700, parents=True)
        made = True
    except FileExistsError:
        made = False
    except OSError as error:
        raise misconfigured(path, f"can't be made: {error.strerror}") from error
    found = path.stat()
    unsafe_mode(path, found)
    if stat.S_IMODE(found.st_mode) != 0o700:
        path.chmod(0o700)
    return made


def made_secret_key(path: Path) -> bool:
    """A new secret key in `path`, mode 600 (mkstemp's), unless one is there; whether one was
    made.

    The key is written whole under another name, then linked to `path`, which fails if `path`
    is there: set-up steps run together agree on one key instead of each writing its own (which
    would log everyone out at random), and none is ever found half written."""
    with tempfile.NamedTemporaryFile("w", encoding="ascii", dir=path.parent) as written:
        written.write(secrets.token_urlsafe(50))
        written.flush()
        try:
            os.link(written.name, path)
        except FileExistsError:
            return False
    return True


def made_private_file(path: Path) -> bool:
    """`path`, empty, for this user alone if it is missing, else made 600; whether it was made."""
    made = not path.exists()
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    if stat.S_IMODE(path.stat().st_mode) != 0o600:
        path.chmod(0o600)
    return made


def main() -> None:
    """`manage.py prepare_var`: saying what it made, or, refused, why."""
    try:
        made = prepare()
    except ImproperlyConfigured as error:
        sys.exit(str(error))
    for path in made:
        print(f"made {path}")
