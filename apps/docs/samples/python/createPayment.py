import os
import uuid

import httpx

api = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
    headers={"Service-Version": "2020-10-12"},
)

# One Idempotency-Key per payment: keep it to retry this same payment safely.
idempotency_key = str(uuid.uuid4())
response = api.post(
    f"/accounts/{os.environ['ACCOUNT_ID']}/payments",
    headers={"Idempotency-Key": idempotency_key},
    json={
        "amount": "25.00",
        "memo": "Dinner split",
        "payee": {
            "scheme": "zelle",
            "address": "jane.doe@example.com",
            "name": "Jane Doe",
            "type": "person",
        },
    },
)
response.raise_for_status()
body = response.json()
if "connect_token" in body:
    print("MFA required", body["connect_token"])
else:
    print("Payment", body["id"], body["reference"], response.status_code)  # 202
