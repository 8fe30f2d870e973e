from lobby.routing import websocket_urlpatterns as lobby_ws
from tables.routing import websocket_urlpatterns as tables_ws

websocket_urlpatterns = [*lobby_ws, *tables_ws]
