import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.get("/sandbox/webhook")
response.raise_for_status()
settings = response.json()
print(settings["url"], len(settings["secrets"]))
