import os

import httpx

api = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
    headers={"Service-Version": "2020-10-12"},
)

response = api.delete(f"/accounts/{os.environ['ACCOUNT_ID']}")
response.raise_for_status()
print(response.status_code)  # 204
