curl -u "$ACCESS_TOKEN:" -X OPTIONS \
  -H 'Service-Version: 2020-10-12' \
  "http://localhost:3000/accounts/$ACCOUNT_ID/payments"
