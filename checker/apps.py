from django.apps import AppConfig


class CheckerConfig(AppConfig):
    """The hand checker's and the helpers' pages; the rules engine beneath imports no Django."""

    name = "checker"
    verbose_name = "Hand checker"
