import os

import httpx

api = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
    headers={"Service-Version": "2020-10-12"},
)

response = api.post(
    f"/accounts/{os.environ['ACCOUNT_ID']}/payees",
    json={
        "scheme": "zelle",
        "address": "jane.doe@example.com",
        "name": "Jane Doe",
        "type": "person",
    },
)
response.raise_for_status()
body = response.json()
# The bank may ask for multi-factor authentication: the user finishes it
# in the enrollment widget, opened with this connect token.
if "connect_token" in body:
    print("MFA required", body["connect_token"])
else:
    print("Payee added", body["name"], body["address"])
