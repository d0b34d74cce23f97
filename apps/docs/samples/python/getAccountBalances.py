import os

import httpx

api = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
    headers={"Service-Version": "2020-10-12"},
)

response = api.get(f"/accounts/{os.environ['ACCOUNT_ID']}/balances")
response.raise_for_status()
print(response.json())
