import os

import httpx

api = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
    headers={"Service-Version": "2020-10-12"},
)

# Newest first. The next page starts after the last transaction received:
# pass its id as from_id.
path = f"/accounts/{os.environ['ACCOUNT_ID']}/transactions"
response = api.get(path, params={"count": 25})
response.raise_for_status()
page = response.json()
for transaction in page:
    print(transaction["date"], transaction["amount"], transaction["description"])

if page:
    response = api.get(path, params={"count": 25, "from_id": page[-1]["id"]})
    response.raise_for_status()
    print(len(response.json()), "older transactions")
