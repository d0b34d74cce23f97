import os

import httpx

# The enrollment widget's steps take no access token: the application is named by its id.
sandbox = httpx.Client(base_url=os.environ["AGGREGATION_BASE_URL"])

response = sandbox.post(
    "/sandbox/connect/sessions",
    json={"application_id": os.environ["APPLICATION_ID"], "products": ["transactions"], "select_account": "multiple", "nonce": "n-8f3k2"},
)
response.raise_for_status()
session = response.json()
print(session["id"], session["mode"], session["step"])
