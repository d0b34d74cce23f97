import os

import httpx

api = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
    headers={"Service-Version": "2020-10-12"},
)

account_id, transaction_id = os.environ["ACCOUNT_ID"], os.environ["TRANSACTION_ID"]
response = api.get(f"/accounts/{account_id}/transactions/{transaction_id}")
response.raise_for_status()
transaction = response.json()
print(transaction["date"], transaction["amount"], transaction["description"])
