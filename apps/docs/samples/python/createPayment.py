import os
import uuid

from aggregation_client import ApiError, create_client
from aggregation_client.models import MfaChallenge, Payment

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
# One Idempotency-Key per payment: keep it to retry this same payment safely.
idempotency_key = str(uuid.uuid4())
# Sent as JSON through the client's connection: the generated create_payment form-encodes its body,
# which cannot carry the nested payee.
response = client.get_httpx_client().post(
    f"/accounts/{os.environ['ACCOUNT_ID']}/payments",
    headers={"Idempotency-Key": idempotency_key},
    json={
        "amount": "25.00",
        "memo": "Dinner split",
        "payee": {"scheme": "zelle", "address": "jane.doe@example.com", "name": "Jane Doe", "type": "person"},
    },
)
if response.is_error:
    raise ApiError.from_response(response.status_code, response.content, dict(response.headers))
if response.status_code == 200:  # the MFA challenge: send the same request with the same key once it is met
    print("MFA required", MfaChallenge.from_dict(response.json()).connect_token, idempotency_key)
else:
    payment = Payment.from_dict(response.json())
    print("Payment", payment.id, payment.reference, response.status_code)  # 202
