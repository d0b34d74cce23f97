import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

# Within 72 hours of an upgrade; afterwards 422 application_version.rollback_expired.
response = sandbox.post("/sandbox/application/version/rollback")
response.raise_for_status()
print(response.json()["default_version"])
