from django.urls import path

from . import views

app_name = "lobby"
urlpatterns = [
    path("count/", views.count_page, name="count"),
    path("count/points/", views.count_points, name="count_points"),
]
