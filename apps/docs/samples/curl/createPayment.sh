# One Idempotency-Key per payment: resending the same key and body returns
# the first payment, never a second one.
curl -u "$AGGREGATION_TOKEN:" -X POST \
  -H 'Service-Version: 2020-10-12' \
  -H 'Idempotency-Key: 5f0c6a9e-2b1d-4c8e-9a57-3e4f1d2c7b90' \
  -H 'Content-Type: application/json' \
  -d '{
    "amount": "25.00",
    "memo": "Dinner split",
    "payee": {
      "scheme": "zelle",
      "address": "jane.doe@example.com",
      "name": "Jane Doe",
      "type": "person"
    }
  }' \
  "$AGGREGATION_BASE_URL/accounts/$ACCOUNT_ID/payments"
