from django.urls import path

from . import views

app_name = "stats"
urlpatterns = [path("leaderboard/", views.leaderboard_page, name="leaderboard")]
