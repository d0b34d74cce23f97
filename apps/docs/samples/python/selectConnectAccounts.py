import os

import httpx

# The enrollment widget's steps take no access token: the application is named by its id.
sandbox = httpx.Client(base_url=os.environ["AGGREGATION_BASE_URL"])

# Grants only the account the user chose among those the session offered.
response = sandbox.post(
    f"/sandbox/connect/sessions/{os.environ['SESSION_ID']}/accounts",
    json={"application_id": os.environ["APPLICATION_ID"], "account_ids": [os.environ["ACCOUNT_ID"]]},
)
response.raise_for_status()
result = response.json()["result"]
print(result["access_token"], len(result["accounts"]))
