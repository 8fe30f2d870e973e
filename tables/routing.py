from django.urls import re_path

from .consumers import TableConsumer

websocket_urlpatterns = [re_path(r"^ws/tables/(?P<table_id>\d+)/$", TableConsumer.as_asgi())]
