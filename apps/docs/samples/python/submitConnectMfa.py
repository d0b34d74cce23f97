import os

import httpx

# The enrollment widget's steps take no access token: the application is named by its id.
sandbox = httpx.Client(base_url=os.environ["AGGREGATION_BASE_URL"])

response = sandbox.post(
    f"/sandbox/connect/sessions/{os.environ['SESSION_ID']}/mfa",
    json={"application_id": os.environ["APPLICATION_ID"], "code": "1234"},
)
response.raise_for_status()
print(response.json()["step"])
