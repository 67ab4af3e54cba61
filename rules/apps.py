from django.apps import AppConfig


class RulesConfig(AppConfig):
    """The hand checker's pages; the rules engine beside it imports nothing from Django."""

    name = "rules"
    verbose_name = "Rules of Big Two"
