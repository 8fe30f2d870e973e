from django.urls import path

from . import views

app_name = "tables"
urlpatterns = [
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/bots/", views.seat_bots, name="seat_bots"),
    path("tables/<int:table_id>/invite/", views.renew_invite, name="renew_invite"),
    # "Count the hand" keeps the short public address the top bar links to.
    path("count/", views.count_page, name="count"),
    path("count/points/", views.count_points, name="count_points"),
]
