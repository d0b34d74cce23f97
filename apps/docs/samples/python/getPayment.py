import os

import httpx

api = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
    headers={"Service-Version": "2020-10-12"},
)

account_id, payment_id = os.environ["ACCOUNT_ID"], os.environ["PAYMENT_ID"]
response = api.get(f"/accounts/{account_id}/payments/{payment_id}")
response.raise_for_status()
payment = response.json()
print(payment["id"], payment["amount"], payment["memo"], payment["reference"])
