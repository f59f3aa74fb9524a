"""The gateway's tables as Prisma created them (prisma/schema.prisma), read-only: Django neither creates nor migrates them."""
from django.db import models


class User(models.Model):
    id = models.UUIDField(primary_key=True)
    username = models.CharField(max_length=150)
    email = models.CharField(max_length=320)
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    is_active = models.BooleanField()
    # What DRF's IsAuthenticated asks of request.user.
    is_authenticated = True

    class Meta:
        managed = False
        db_table = "users"

    @property
    def full_name(self):
        return f"{self.first_name} {self.last_name}".strip()


class AuthToken(models.Model):
    key_digest = models.CharField(primary_key=True, max_length=64)
    user = models.ForeignKey(User, on_delete=models.DO_NOTHING, db_column="user_id")

    class Meta:
        managed = False
        db_table = "auth_tokens"


class Offering(models.Model):
    id = models.UUIDField(primary_key=True)
    name = models.CharField(max_length=150)

    class Meta:
        managed = False
        db_table = "offerings"


class OfferingUser(models.Model):
    id = models.UUIDField(primary_key=True)
    offering = models.ForeignKey(Offering, on_delete=models.DO_NOTHING, db_column="offering_id")
    user = models.ForeignKey(User, on_delete=models.DO_NOTHING, db_column="user_id")
    username = models.CharField(max_length=100, null=True)
    state = models.CharField(max_length=40)
    created = models.DateTimeField()

    class Meta:
        managed = False
        db_table = "offering_users"
        # The gateway's default order (username, then the tiebreak).
        ordering = ["username", "created", "id"]
