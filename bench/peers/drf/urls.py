from django.urls import path

from offering_users.views import OfferingUserList

urlpatterns = [path("api/marketplace-offering-users/", OfferingUserList.as_view())]
