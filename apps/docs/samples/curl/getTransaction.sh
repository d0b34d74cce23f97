curl -u "$ACCESS_TOKEN:" \
  -H 'Service-Version: 2020-10-12' \
  "http://localhost:3000/accounts/$ACCOUNT_ID/transactions/$TRANSACTION_ID"
