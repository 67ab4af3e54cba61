from django.apps import AppConfig


class RulesWebConfig(AppConfig):
    """The hand checker's and the helpers' pages; the rules engine beneath imports no Django.

    The label stays "rules", the name this app had while it sat inside the engine's package.
    """

    name = "rules.web"
    label = "rules"
    verbose_name = "Rules of Big Two"
