"""Which language a person reads the site in: the one saved on his profile when he is logged in, else the cookie
the header's switcher sets, else his browser's Accept-Language (Django's LocaleMiddleware), else English.

The same order holds for a table's WebSocket (`language_of_scope`), so the door's refusals reach each viewer in
his own language."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpResponseBadRequest
from django.utils import translation
from django.utils.translation import check_for_language
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

LANGUAGE_CODES = [code for code, _ in settings.LANGUAGES]


def supported(code: str | None) -> str | None:
    """The site's language for a code ("ru", "ru-RU", "bg"), or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


class ProfileLanguageMiddleware:
    """After LocaleMiddleware and authentication: a player who chose a language reads it on any browser."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        chosen = (
            supported(getattr(user, "language", "")) if user is not None and user.is_authenticated else None
        )
        if chosen:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        return self.get_response(request)


@require_POST
def set_language(request):
    """The header's switcher: Django's set_language (the cookie, the redirect back), and the profile for a player."""
    code = supported(request.POST.get("language"))
    if code is None or not check_for_language(code):
        return HttpResponseBadRequest("No such language.")
    response = django_set_language(request)
    user = request.user
    if user.is_authenticated and user.language != code:
        user.language = code
        user.save(update_fields=["language"])
    return response


@receiver(user_logged_in)
def keep_the_visitors_choice(sender, request, user, **kwargs):
    """A visitor who picked a language before signing up or logging in keeps it on his profile."""
    if request is None or user.language:
        return
    code = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    if code:
        user.language = code
        user.save(update_fields=["language"])


def language_of_scope(scope) -> str:
    """A WebSocket's viewer's language, in the order the pages use."""
    user = scope.get("user")
    if user is not None and user.is_authenticated and supported(getattr(user, "language", "")):
        return supported(user.language)
    headers = dict(scope.get("headers") or [])
    cookies = scope.get("cookies") or {}
    from_cookie = supported(cookies.get(settings.LANGUAGE_COOKIE_NAME))
    if from_cookie:
        return from_cookie
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in translation.trans_real.parse_accept_lang_header(accept):
        if code == "*":
            break
        found = supported(code)
        if found:
            return found
    return settings.LANGUAGE_CODE
