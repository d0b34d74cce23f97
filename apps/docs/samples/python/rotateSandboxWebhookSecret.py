import os
from datetime import datetime, timedelta, timezone

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

# A new secret signs from now on; the current one signs too for one more day.
expire_current_at = (datetime.now(timezone.utc) + timedelta(days=1)).isoformat()
response = sandbox.post(
    "/sandbox/webhook/secrets",
    json={"expire_current_at": expire_current_at},
)
response.raise_for_status()
for secret in response.json()["secrets"]:
    print(secret["id"], secret["expires_at"])
