import os

import httpx

api = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
    headers={"Service-Version": "2020-10-12"},
)

response = api.get("/accounts")
response.raise_for_status()
for account in response.json():
    can_pay = "payments" in account["links"]
    print(account["id"], account["name"], account["subtype"], can_pay)
