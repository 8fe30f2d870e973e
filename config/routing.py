from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import re_path

from lobby.routing import websocket_urlpatterns as lobby_ws
from tables.routing import websocket_urlpatterns as tables_ws


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other path: the handshake is refused (HTTP 403), instead of the router's ValueError and a 500."""

    async def connect(self):
        await self.close()


websocket_urlpatterns = [*lobby_ws, *tables_ws, re_path(r"", NoSuchSocket.as_asgi())]
