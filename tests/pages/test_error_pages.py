"""The site's own error pages (no Django debug page unless DEBUG=1), in the site's look."""

import pytest
from django.test import Client
from django.urls import include, path


def broken(request):
    raise RuntimeError("a bug")


urlpatterns = [path("broken/", broken), path("", include("config.urls"))]


@pytest.mark.django_db
def test_an_unknown_table_is_a_friendly_404_in_the_sites_look(client):
    response = client.get("/tables/987654/")
    assert response.status_code == 404
    page = response.content.decode()
    assert 'id="error-page"' in page and "There is no such table" in page and 'class="topbar"' in page


@pytest.mark.django_db
def test_a_server_error_is_a_friendly_500_in_the_sites_look(settings):
    settings.ROOT_URLCONF = __name__
    response = Client(raise_request_exception=False).get("/broken/")
    assert response.status_code == 500
    page = response.content.decode()
    assert 'data-status="500"' in page and "Your chips are safe" in page and "RuntimeError" not in page


def test_debug_is_off_unless_asked_for():
    import subprocess
    import sys

    probe = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    env = {"DJANGO_SETTINGS_MODULE": "config.settings.base", "PATH": "/usr/bin:/bin"}
    for debug, expected in ((None, "False"), ("1", "True"), ("0", "False")):
        run_env = dict(env, **({"DEBUG": debug} if debug else {}))
        out = subprocess.run([sys.executable, "-c", probe], env=run_env, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == expected, (debug, out.stderr)


@pytest.mark.django_db
def test_a_form_without_its_csrf_token_is_refused_in_the_sites_look():
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"login": "a@example.com"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "Please try again" in page and 'class="topbar"' in page and "CSRF verification failed" not in page
