import os

import httpx

sandbox = httpx.Client(
    base_url="http://localhost:3000",
    auth=(os.environ["ACCESS_TOKEN"], ""),
)

response = sandbox.get("/sandbox/webhook")
response.raise_for_status()
settings = response.json()
print(settings["url"], len(settings["secrets"]))
