import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
)

response = sandbox.get("/sandbox/application")
response.raise_for_status()
application = response.json()
print(application["id"], application["default_version"])
