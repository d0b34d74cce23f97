import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.get("/sandbox/application")
response.raise_for_status()
application = response.json()
print(application["id"], application["default_version"])
