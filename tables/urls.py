from django.urls import path

from . import history_views, views

app_name = "tables"
urlpatterns = [
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/bots/", views.seat_bots, name="seat_bots"),
    path("tables/<int:table_id>/invite/", views.renew_invite, name="renew_invite"),
    # "Count the hand" keeps the short public address the top bar links to.
    path("count/", views.count_page, name="count"),
    path("count/points/", views.count_points, name="count_points"),
    # Hand histories (tables/history_views.py): a player's own deals, a deal's replay and its text.
    path("history/", history_views.history_list, name="history"),
    path("history/<int:deal_id>/", history_views.deal_replay, name="replay"),
    path("history/<int:deal_id>.txt", history_views.deal_text, name="deal_text"),
    path("tables/<int:table_id>/last-deal/", history_views.last_deal, name="last_deal"),
    path("fair/", views.fair_page, name="fair"),
]
