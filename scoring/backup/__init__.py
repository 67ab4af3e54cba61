"""A club's whole history as one JSON document, and back, beside whatever clubs are there.

A backup (version 2) holds the club and every row of its models (`CLUB_PARTS`), each as
Django's serializer writes a row (`{"model", "pk", "fields"}`, times to the microsecond), and
the accounts those rows name: the members, and anyone the
history names who has since left. Of an account it keeps what names someone
(`ACCOUNT_FIELDS`), and its password hash only when asked (`with_passwords`): never a staff,
superuser, group or permission field. An account restored without one has no password until
it is given one (the club owner's password reset link).

A restore trusts nothing in the file. It reads it strictly: only the club's models and
their fields, each value read by its field as Django's deserializer reads it (`to_python`),
written as export_club writes it and passing the field's own validators, every
link pointing at a row of the same file, one club whose owner is one of its members, no
account the club doesn't name, every username as sign-up would write it.
Anything else refuses the whole file, with a list of what was found. Then, in one
transaction, it refuses usernames already taken here and inserts every row with a new id,
its links remapped, so no row of another club is ever written. Version 1 files restore
through the same reader, as do files made before wins could be shared (`results`: each
game's winning seat is marked from its winner).

The package, by step: `parts` (what a backup is made of: `CLUB_PARTS`, the accounts' fields,
the encoder, the checks), `writing` (`export_club`), `reading` (`read`, strict, and `results`,
who won each game) and `restoring` (`import_club`).
"""

from scoring.backup.parts import CLUB_PARTS, BackupError, Part, check_parts
from scoring.backup.reading import Backup, read
from scoring.backup.restoring import import_club
from scoring.backup.writing import export_club

__all__ = [
    "CLUB_PARTS",
    "Backup",
    "BackupError",
    "Part",
    "check_parts",
    "export_club",
    "import_club",
    "read",
]
