from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_delete, post_save


class CommonConfig(AppConfig):
    name = "common"

    def ready(self) -> None:
        from common import cached_user

        # In every process, not only the ones that read accounts: the one that saves an account
        # (a password change, the admin, a management command) is the one that must say so.
        user_model = settings.AUTH_USER_MODEL
        post_save.connect(cached_user.on_account_saved, sender=user_model)
        post_delete.connect(cached_user.on_account_deleted, sender=user_model)
