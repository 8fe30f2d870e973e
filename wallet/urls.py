app_name = "wallet"
urlpatterns = []
