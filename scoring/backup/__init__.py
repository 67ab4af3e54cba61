"""A club's whole history as one JSON document, and back, beside whatever clubs are there.

A backup (version 2) holds the club and every row of its models (`CLUB_PARTS`), each as
Django's serializer writes a row (`{"model", "pk", "fields"}`, times to the microsecond), and
the accounts those rows name: the members, and anyone the history names who has since left. Of
an account it keeps what names someone (`ACCOUNT_FIELDS`), and its password hash only when
asked (`with_passwords`): never a staff, superuser, group or permission field.

A restore trusts nothing in the file (docs/backup.md says what it refuses): each item goes
through Django's deserializer and each object through `full_clean()`, anything else a club's
backup never holds refuses the whole file, listing what was found, and then, in one
transaction, every row is inserted with a new id, its links remapped.

By step: `parts` (what a backup is made of), `writing` (`export_club`), `reading` (`read`, and
`results`, who won each game), `restoring` (`import_club`).
"""

from scoring.backup.parts import CLUB_PARTS, BackupError, Part
from scoring.backup.reading import Backup, read
from scoring.backup.restoring import import_club
from scoring.backup.writing import export_club

__all__ = ["CLUB_PARTS", "Backup", "BackupError", "Part", "export_club", "import_club", "read"]
