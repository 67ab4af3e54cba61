"""Logging in, signing up (with an email where the site sends email) and deleting one's account."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class LoginForm(AuthenticationForm):
    """Django's login form, the username's length checked on the server too: Django sets only
    the box's maxlength, and a longer name went on to authenticate(), whose failure
    django-axes records in a 255-character column (PostgreSQL refused it: a 500)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))


class SignupForm(UserCreationForm):
    """Username, password and its confirmation: nothing else is needed to keep score.

    Where the site sends email (settings.SITE_SENDS_EMAIL), an optional email too, used for
    nothing but "Forgot your password?". Two accounts may share one: a family's, say (a reset
    then mails a link for each), and refusing a taken one would tell anyone who tried it that
    the address has an account here.
    """

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = _(
            "The name your club will see. Letters, digits and @ . + - _ only."
        )
        self.fields["password2"].help_text = _("Type the same password again.")
        if not settings.SITE_SENDS_EMAIL:
            del self.fields["email"]
            return
        email = self.fields["email"]
        email.label = _("Email (optional)")
        email.help_text = _(
            "Only for “Forgot your password?”: the site sends nothing else, and no one else "
            "sees it."
        )
        email.error_messages["invalid"] = _(
            "That isn't an email address: it looks like name@example.org. Or leave it empty."
        )


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        error_messages={"required": gettext_lazy("Type your password to delete your account.")},
    )
