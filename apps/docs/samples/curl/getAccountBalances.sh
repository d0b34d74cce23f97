curl -u "$ACCESS_TOKEN:" \
  -H 'Service-Version: 2020-10-12' \
  "$BASE_URL/accounts/$ACCOUNT_ID/balances"
