from django.urls import path

from . import views

app_name = "wallet"
urlpatterns = [
    # The signed-in player's own chips.
    path("wallet/balance/", views.balance, name="balance"),
    # Finance pages for staff.
    path("finance/", views.index, name="index"),
    path("finance/rake/", views.rake, name="rake"),
    path("finance/circulation/", views.circulation, name="circulation"),
    path("finance/statement/", views.player_statement, name="statement"),
]
