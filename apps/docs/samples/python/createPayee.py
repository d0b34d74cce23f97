import os

from aggregation_client import check, create_client
from aggregation_client.api.payments import create_payee
from aggregation_client.models import CreatePayeeRequest, MfaChallenge

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
payee = CreatePayeeRequest.from_dict(
    {"scheme": "zelle", "address": "jane.doe@example.com", "name": "Jane Doe", "type": "person"}
)
# One answer, two shapes: the payee, or the MFA challenge when the institution asks for it.
answer = check(create_payee.sync_detailed(os.environ["ACCOUNT_ID"], client=client, body=payee))
if isinstance(answer, MfaChallenge):
    print("MFA required", answer.connect_token)
else:
    print("Payee", answer.address, answer.name)
