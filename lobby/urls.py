from django.urls import path

from . import views

app_name = "lobby"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("create/", views.create_table, name="create"),
    path("quick-seat/", views.quick_seat, name="quick_seat"),
]
