#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bigtwo_site.settings")
    if sys.argv[1:] == ["prepare_var"]:
        # The set-up step makes what the settings read (bigtwo_site/prepare_var.py), so it runs
        # before they load, where Django, which loads them to find its commands, can't run it.
        from bigtwo_site.prepare_var import main as prepare_var

        prepare_var()
        return
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
