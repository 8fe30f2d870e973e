from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("finance/", include("wallet.urls")),
    path("tables/", include("tables.urls")),
    path("", include("lobby.urls")),
]
