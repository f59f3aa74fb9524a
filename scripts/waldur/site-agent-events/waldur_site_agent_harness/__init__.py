"""Harness-only plugins for running the unmodified site agent without a real site.

- ``HarnessUsernameBackend`` (entry point ``harness`` in ``waldur_site_agent.username_management_backends``):
  generates a username offline from the Waldur user (``user_username``, else the e-mail's local part, else
  ``user_<uuid>``), lowercased and cut to ``[a-z0-9_.-]``, at most 32 characters. The agent's own ``base``
  backend always answers "" (no username), and ``ldap``/``waldur-identity-bridge`` need an external system.
The ``mock`` order/membership backend is the agent's own ``waldur_site_agent.testing.mock_backend:MockBackend``;
the harness only registers it as an entry point (the agent's pyproject does not).
"""

import re
from typing import Optional

from waldur_site_agent.backend.backends import AbstractUsernameManagementBackend


def _clean(text: str) -> str:
    return re.sub(r"[^a-z0-9_.-]+", "_", text.lower()).strip("_.-")[:32]


class HarnessUsernameBackend(AbstractUsernameManagementBackend):
    """Offline username generation for tests."""

    def generate_username(self, offering_user) -> str:  # noqa: ANN001
        prefix = str(self.backend_settings.get("username_prefix", ""))
        for candidate in (getattr(offering_user, "user_username", None), getattr(offering_user, "user_email", None)):
            if isinstance(candidate, str) and candidate:
                cleaned = _clean(candidate.split("@")[0])
                if cleaned:
                    return _clean(prefix + cleaned)
        uuid = getattr(offering_user, "user_uuid", None) or getattr(offering_user, "uuid", None)
        return _clean(f"{prefix}user_{getattr(uuid, 'hex', uuid) or 'unknown'}")

    def get_username(self, offering_user) -> Optional[str]:  # noqa: ANN001
        del offering_user
        return None
