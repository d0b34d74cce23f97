import os

from aggregation_client import check, create_client
from aggregation_client.api.payments import get_payment

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
payment = check(get_payment.sync_detailed(os.environ["ACCOUNT_ID"], os.environ["PAYMENT_ID"], client=client))
print(payment.id, payment.amount, payment.memo, payment.reference)
