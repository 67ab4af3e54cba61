from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_GET
def ping(request: HttpRequest) -> HttpResponse:
    """A health check for a load balancer, and the load test's yardstick: the cheapest answer
    the site can give through its full middleware stack."""
    return HttpResponse("ok", content_type="text/plain")
