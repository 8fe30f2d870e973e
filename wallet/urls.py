from django.urls import path

from . import views

app_name = "wallet"
urlpatterns = [
    path("", views.index, name="index"),
    path("rake/", views.rake, name="rake"),
    path("circulation/", views.circulation, name="circulation"),
    path("statement/", views.player_statement, name="statement"),
]
