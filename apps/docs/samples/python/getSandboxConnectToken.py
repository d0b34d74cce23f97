import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.get(f"/sandbox/connect_tokens/{os.environ['CONNECT_TOKEN']}")
response.raise_for_status()
challenge = response.json()
print(challenge["operation"], challenge["status"], "expires", challenge["expires_at"])
