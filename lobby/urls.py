app_name = "lobby"
urlpatterns = []
