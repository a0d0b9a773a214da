"""The class server as a JupyterHub service (issue 23): who asks is the Hub's business.

``python -m ttrlib.server --hub`` is started by the Hub (``c.JupyterHub.services``, see
``deploy/jupyterhub/``), which hands it its address, prefix and OAuth client in ``JUPYTERHUB_*``
variables. Then:

- every handler is its class with JupyterHub's ``HubOAuthenticated`` mixed in front
  (:func:`hub_class`): the Hub's user check (``check_hub_user``: the service's access scope),
  its login address and its XSRF tokens, as JupyterHub's own services use them;
- pages log in with the Hub's OAuth (``HubOAuth``; the callback is ``<prefix>oauth_callback``);
  the API takes a Hub token (``Authorization: token ...``): a lesson kernel sends the learner's
  ``JUPYTERHUB_API_TOKEN``. A token must hold the service's access scope
  (``access:services!service=ttr``).
- a teacher is a Hub user with the custom scope ``TEACHER_SCOPE``, which the deployment grants
  to the Hub group ``ttr-teachers``; everyone else is a learner.
- a seat belongs to the Hub user who opens its link first (``TableStore.sit``); the teacher may
  give it to another user or to a bot.

The standalone mode (token file, seat keys only) stays the default for one machine.
"""

from __future__ import annotations

import functools
import os

#: the custom scope (``c.JupyterHub.custom_scopes``) that makes a Hub user a teacher here
TEACHER_SCOPE = "custom:ttr:teach"
TEACHERS_GROUP = "ttr-teachers"


def hub_auth():
    """The service's ``HubOAuth``, configured from the Hub's ``JUPYTERHUB_*`` variables."""
    try:
        from jupyterhub.services.auth import HubOAuth
    except ImportError:
        raise SystemExit("--hub needs JupyterHub's Python package: "
                         "pip install jupyterhub") from None
    if not os.environ.get("JUPYTERHUB_API_TOKEN"):
        raise SystemExit("--hub: the Hub starts this server as a service (JUPYTERHUB_API_TOKEN "
                         "is missing); see deploy/jupyterhub/jupyterhub_config.py")
    # the one instance the OAuth callback handler also uses (it keeps the login states)
    return HubOAuth.instance(cache_max_age=60)


def service_address() -> tuple[str, int]:
    """(ip, port) the Hub expects the service on (``JUPYTERHUB_SERVICE_URL``)."""
    from urllib.parse import urlsplit

    url = urlsplit(os.environ["JUPYTERHUB_SERVICE_URL"])
    return url.hostname or "127.0.0.1", url.port or 80


@functools.cache
def hub_class(cls: type) -> type:
    """``cls`` with JupyterHub's ``HubOAuthenticated`` in front, its ``hub_auth`` the server's
    one ``HubOAuth``. (Otherwise HubOAuth patches tornado's own RequestHandler for XSRF.)"""
    from jupyterhub.services.auth import HubOAuthenticated

    if issubclass(cls, HubOAuthenticated):
        return cls
    return type(cls.__name__, (HubOAuthenticated, cls), {
        "__module__": cls.__module__, "__doc__": cls.__doc__,
        "hub_auth": property(lambda self: self.server.hub)})


async def hub_user(handler) -> dict | None:
    """The Hub's model of the user asking, if the Hub knows them and the mixin's
    ``check_hub_user`` lets them in (the service's access scope); else None. Asked once per
    request, without blocking the loop (the mixin's ``get_current_user`` is synchronous)."""
    from jupyterhub.services.auth import UserNotAllowed

    model = await handler.hub_auth.get_user(handler, sync=False)
    if not model or model.get("kind", "user") != "user":
        allowed = None
    else:
        try:
            allowed = handler.check_hub_user(model)
        except UserNotAllowed:
            allowed = None
    handler._hub_auth_user_cache = allowed  # the mixin's get_current_user answers this
    return allowed


def routes(server) -> list:
    """The OAuth callback, on a Hub; nothing on one machine."""
    if server.hub is None:
        return []
    from jupyterhub.services.auth import HubOAuthCallbackHandler

    return [(r"/oauth_callback", HubOAuthCallbackHandler)]
