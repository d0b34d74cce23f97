curl -u "$ACCESS_TOKEN:" -X OPTIONS \
  -H 'Service-Version: 2020-10-12' \
  "$BASE_URL/accounts/$ACCOUNT_ID/payments"
