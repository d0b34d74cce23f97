import os

from aggregation_client import check, create_client
from aggregation_client.api.payments import list_payments

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
payments = check(list_payments.sync_detailed(os.environ["ACCOUNT_ID"], client=client))
print(len(payments), "payments")
for payment in payments:
    print(payment.id, payment.date, payment.amount, payment.payee.address)
