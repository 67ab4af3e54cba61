"""A club's whole history as one JSON document, and back, beside whatever clubs are there.

A backup (version 2) holds the club and every row of its models (`CLUB_PARTS`), each as
Django's serializer writes a row (`{"model", "pk", "fields"}`, times to the microsecond), and
the accounts those rows name: the members, and anyone the history names who has since left. Of
an account it keeps what names someone (`ACCOUNT_FIELDS`), and its password hash only when
asked (`with_passwords`): never a staff, superuser, group or permission field.

A restore trusts nothing in the file. Each item goes through Django's deserializer and each
object through `full_clean()`; and only the club's models and their fields are read, each
value held as export_club writes it, every link pointing at a row of the same file, one club
whose owner is one of its members, no account the club doesn't name. Anything else refuses the
whole file, listing what was found. Then, in one transaction, it refuses usernames and unique
values already here and inserts every row with a new id, its links remapped, so no row of
another club is ever written. Version 1 files, and files made before wins could be shared
(`results`), restore through the same reader.

By step: `parts` (what a backup is made of, and the checks beyond Django's), `writing`
(`export_club`), `reading` (`read`, and `results`, who won each game), `restoring`
(`import_club`).
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
