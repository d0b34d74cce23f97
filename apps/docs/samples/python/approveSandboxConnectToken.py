import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

# Approves the MFA challenge as its user would; then send the request that answered it again, with the same
# Idempotency-Key and body.
response = sandbox.post(f"/sandbox/connect_tokens/{os.environ['CONNECT_TOKEN']}/approve")
response.raise_for_status()
challenge = response.json()
print(challenge["operation"], challenge["status"])
