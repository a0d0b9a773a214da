"""The ttrlib class server as a JupyterHub service, for a school on The Littlest JupyterHub.

Copy this file to /opt/tljh/config/jupyterhub_config.d/ttrlib.py and `sudo tljh-config reload`
(or load it from your own jupyterhub_config.py with `load_subconfig`). It adds to the Hub:

- the managed service `ttr`: `python -m ttrlib.server --hub` on 127.0.0.1:TTR_SERVICE_PORT, reached
  through the Hub's proxy at /services/ttr/ (the Hub starts, restarts and stops it);
- its log and records in PostgreSQL (TTR_DB): several servers may share it;
- the custom scope custom:ttr:teach, held by the Hub group ttr-teachers (add teachers there in
  the Hub's admin page, or list them in TTR_TEACHERS); every Hub user is a learner;
- the service's access scope for every user and for their servers' tokens, so a lesson kernel
  reaches it with the learner's JUPYTERHUB_API_TOKEN;
- TTR_CLASS_SERVER in every learner's server, which lesson 08 reads to find its table.

The authenticator and the spawner are the Hub's own (TLJH: its users and systemd spawner); this
file sets neither. Each value comes from an environment variable of the Hub with a default, so
one file serves a school and the tests (tests/test_hub_service.py) alike.
"""

import os
import sys

c = get_config()  # noqa: F821 - JupyterHub's config loader provides it

NAME = "ttr"
PORT = int(os.environ.get("TTR_SERVICE_PORT", "10101"))
# the log and the records: a PostgreSQL database the Hub's machine reaches
DATABASE = os.environ.get("TTR_DB", "postgresql://ttr@localhost/ttr")
# the service's secrets (the class secret) and nothing else: the data are in DATABASE
DATA = os.environ.get("TTR_DATA", "/srv/ttrlib")
# where learners reach the Hub (the seats' links go through /hub/user-redirect to their own
# server's classroom app): https://hub.school.example ; "" keeps the links relative to the Hub
PUBLIC_URL = os.environ.get("TTR_HUB_PUBLIC_URL", "").rstrip("/")
PYTHON = os.environ.get("TTR_PYTHON", sys.executable)  # the Python where ttrlib is installed
TEACHERS = [u for u in os.environ.get("TTR_TEACHERS", "").split(",") if u]
TEACH = "custom:ttr:teach"
ACCESS = f"access:services!service={NAME}"

# added to what other files of the Hub's config set (TLJH reads several), not in their place
c.JupyterHub.services.append(
    {
        "name": NAME,
        "url": f"http://127.0.0.1:{PORT}",
        "command": [PYTHON, "-m", "ttrlib.server", "--hub", "--db", DATABASE, "--data", DATA,
                    "--lessons", f"{PUBLIC_URL}/hub/user-redirect"],
        # the environment the service needs beyond the Hub's JUPYTERHUB_* variables
        "environment": {k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ},
        "oauth_no_confirm": True,  # the school's own service: no "authorize?" page
        # a teacher's login to the service carries the teacher scope (learners have none)
        "oauth_client_allowed_scopes": [TEACH],
        "display": True,  # listed in the Hub's Services menu
    }
)
c.JupyterHub.custom_scopes.update({
    TEACH: {"description": "Teach on the ttrlib class server: make tables, hand seats out, "
                           "see the class's progress and the teacher's materials."},
})
c.JupyterHub.load_roles.extend([
    # every user may reach the service, and so may their servers' tokens (lesson 08's kernel)
    {"name": "user", "scopes": ["self", ACCESS]},
    {"name": "server", "scopes": ["users:activity!user", "access:servers!server", ACCESS]},
    {"name": "ttr-teacher", "scopes": [TEACH], "groups": ["ttr-teachers"]},
])
c.JupyterHub.load_groups.update({"ttr-teachers": {"users": TEACHERS}})
# lesson 08 in a learner's server finds the class server here (straight to the service, on
# the Hub's machine; through the proxy it would be PUBLIC_URL/services/ttr)
c.Spawner.environment.update({"TTR_CLASS_SERVER": f"http://127.0.0.1:{PORT}/services/{NAME}"})
