import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.post("/sandbox/application/version", json={"version": "2020-10-12"})
response.raise_for_status()
application = response.json()
print(application["default_version"], application["rollback_until"])
