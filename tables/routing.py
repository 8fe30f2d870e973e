from django.urls import re_path

from .consumers import TableConsumer

# Any id reaches the consumer, which answers one that names no table with `no_such_table` (docs/protocol.md).
websocket_urlpatterns = [re_path(r"^ws/tables/(?P<table_id>[^/]+)/$", TableConsumer.as_asgi())]
