# Schemathesis hooks of the contract tests (loaded through SCHEMATHESIS_HOOKS by the runner).
#
# A webhook URL aimed at the server under test makes that server POST every later event to its own routes, where
# each delivery fails and is retried for hours. Schemathesis finds such URLs in the answers it reads (every `links`
# value is one), so bodies of `PUT /sandbox/webhook` whose `url` has the origin of the server under test are not
# sent; any other URL, valid or not, still is. CONTRACT_SERVER_ORIGINS lists those origins, comma-separated.
import os
from urllib.parse import urlsplit

import schemathesis

LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}


def _origin(url):
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None
    return ("loopback" if host in LOOPBACK else host, port)


SERVER_ORIGINS = {
    origin for origin in (_origin(url) for url in os.environ.get("CONTRACT_SERVER_ORIGINS", "").split(",") if url) if origin
}


@schemathesis.hook
def filter_body(context, body):
    operation = context.operation
    if operation is None or operation.method.upper() != "PUT" or operation.path != "/sandbox/webhook":
        return True
    url = body.get("url") if isinstance(body, dict) else None
    return not (isinstance(url, str) and _origin(url) in SERVER_ORIGINS)
