import hashlib
import re

from rest_framework import authentication, exceptions

from .models import AuthToken

_TOKEN = re.compile(r"Token\s+([0-9a-fA-F]{40})")


class TokenDigestAuthentication(authentication.BaseAuthentication):
    """DRF's TokenAuthentication (as Waldur runs it) over the gateway's auth_tokens, which keep a SHA-256 digest of each key."""

    def authenticate(self, request):
        match = _TOKEN.fullmatch(request.META.get("HTTP_AUTHORIZATION", ""))
        if not match:
            return None
        digest = hashlib.sha256(match.group(1).lower().encode()).hexdigest()
        token = AuthToken.objects.select_related("user").filter(key_digest=digest).first()
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return token.user, token

    def authenticate_header(self, request):
        return "Token"
