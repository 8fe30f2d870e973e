from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog

from accounts.language import set_language

admin.site.site_header = admin.site.site_title = "Svara administration"
# The admin's lists are wide (the ledger's transfers): the page's width goes to them, not to a second app list.
admin.site.enable_nav_sidebar = False

urlpatterns = [
    path("admin/", admin.site.urls),
    # Pages without our <link rel="icon"> (the admin) make browsers ask for /favicon.ico: send them to the SVG.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("img/favicon.svg"), permanent=True)),
    path("i18n/setlang/", set_language, name="set_language"),
    # The pages' JavaScript strings (static/js/...: gettext, ngettext, interpolate) in the viewer's language. Not
    # cached by the browser: the same address serves another language after the switcher.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("wallet.urls")),
    # The balance lived with the tables before; a table page opened before the move still asks there.
    path("tables/balance/", RedirectView.as_view(pattern_name="wallet:balance", permanent=True)),
    path("", include("tables.urls")),
    path("", include("stats.urls")),
    path("", include("lobby.urls")),
]
