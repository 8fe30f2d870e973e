from django.urls import path

from . import rules, views

app_name = "lobby"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("create/", views.create_table, name="create"),
    path("quick-seat/", views.quick_seat, name="quick_seat"),
    path("play-bots/", views.play_bots, name="play_bots"),
    path("rules/", rules.rules_page, name="rules"),
]
