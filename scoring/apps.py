from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Score-keeping"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from scoring import live

        # However a session is logged out (the log-out page, deleting the account, the admin's),
        # the games' streams it holds end (scoring/views/streams.py).
        user_logged_out.connect(live.logged_out, dispatch_uid="scoring.live.logged_out")
