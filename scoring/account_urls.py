"""Sign up, log in and log out, under /accounts/ (names without a namespace, as
`LOGIN_URL = "login"` expects)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from scoring.views import accounts

urlpatterns = [
    path("signup/", accounts.signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, next_page="scoring:clubs"),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
