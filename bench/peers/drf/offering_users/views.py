from rest_framework import generics, serializers

from .models import OfferingUser


class OfferingUserSerializer(serializers.ModelSerializer):
    """Waldur's flat style: the user's and the offering's fields beside the offering user's own."""

    uuid = serializers.UUIDField(source="id", format="hex")
    user_username = serializers.CharField(source="user.username")
    user_email = serializers.CharField(source="user.email")
    user_full_name = serializers.CharField(source="user.full_name")
    offering_name = serializers.CharField(source="offering.name")

    class Meta:
        model = OfferingUser
        fields = ["uuid", "state", "created", "user_username", "user_email", "user_full_name", "offering_name"]


class OfferingUserList(generics.ListAPIView):
    queryset = OfferingUser.objects.select_related("user", "offering")
    serializer_class = OfferingUserSerializer
