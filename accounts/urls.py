"""Signing up, logging in and out, getting back in and leaving, under /accounts/ (names
without a namespace, as `LOGIN_URL = "login"` expects).

The emailed links ("Forgot your password?", its sent page and the page its link opens) are
found only where the site sends email (DJANGO_EMAIL_URL); elsewhere they answer 404.
"""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts.views import deletion, passwords, signup

urlpatterns = [
    path("signup/", signup.signup, name="signup"),
    path("login/", signup.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", passwords.ChangePassword.as_view(), name="password-change"),
    path("password/forgot/", passwords.ForgotPassword.as_view(), name="password-forgot"),
    path(
        "password/forgot/sent/",
        passwords.ForgotPasswordSent.as_view(),
        name="password-forgot-sent",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        passwords.EmailLinkPage.as_view(),
        name="password-reset-email",
    ),
    path(
        "password/link/<id:club_id>/<uidb64>/<token>/",
        passwords.ClubLinkPage.as_view(),
        name="password-reset-link",
    ),
    path("password/done/", passwords.PasswordSet.as_view(), name="password-reset-done"),
    path("delete/", deletion.delete_account, name="account-delete"),
]
