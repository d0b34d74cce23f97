import os
import uuid

from aggregation_client import check, create_client
from aggregation_client.api.payments import create_payment
from aggregation_client.models import CreatePaymentRequest, MfaChallenge

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
body = CreatePaymentRequest.from_dict(
    {
        "amount": "25.00",
        "memo": "Dinner split",
        "payee": {"scheme": "zelle", "address": "jane.doe@example.com", "name": "Jane Doe", "type": "person"},
    }
)
# One Idempotency-Key per payment: keep it to retry this same payment safely.
idempotency_key = str(uuid.uuid4())
answer = check(create_payment.sync_detailed(os.environ["ACCOUNT_ID"], client=client, body=body, idempotency_key=idempotency_key))
if isinstance(answer, MfaChallenge):  # send the same request with the same key once it is met
    print("MFA required", answer.connect_token, idempotency_key)
else:
    print("Payment", answer.id, answer.reference)  # 202
