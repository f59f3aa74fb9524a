"""The Django REST Framework peer of bench/peers.ts: Waldur's stack over the bench's database (DATABASE_URL), with
token authentication as Waldur's, or none with DRF_AUTH=none."""
import os
from urllib.parse import unquote, urlparse

_url = urlparse(os.environ["DATABASE_URL"])

SECRET_KEY = "bench-only"
DEBUG = False
ALLOWED_HOSTS = ["*"]
USE_TZ = True
TIME_ZONE = "UTC"
ROOT_URLCONF = "urls"
WSGI_APPLICATION = "wsgi.application"
INSTALLED_APPS = ["django.contrib.contenttypes", "rest_framework", "offering_users"]
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": _url.path.lstrip("/"),
        "USER": unquote(_url.username or ""),
        "PASSWORD": unquote(_url.password or ""),
        "HOST": _url.hostname or "",
        "PORT": str(_url.port or ""),
        # One connection per gunicorn thread, kept across requests.
        "CONN_MAX_AGE": None,
    }
}
_TOKEN_AUTH = os.environ.get("DRF_AUTH", "token") == "token"
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["offering_users.authentication.TokenDigestAuthentication"] if _TOKEN_AUTH else [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated" if _TOKEN_AUTH else "rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 10,
}
