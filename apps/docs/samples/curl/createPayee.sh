# Answers with the payee, or with {"connect_token": "..."} when the bank asks
# for multi-factor authentication.
curl -u "$AGGREGATION_TOKEN:" -X POST \
  -H 'Service-Version: 2020-10-12' \
  -H 'Content-Type: application/json' \
  -d '{
    "scheme": "zelle",
    "address": "jane.doe@example.com",
    "name": "Jane Doe",
    "type": "person"
  }' \
  "$AGGREGATION_BASE_URL/accounts/$ACCOUNT_ID/payees"
