curl -u "$AGGREGATION_TOKEN:" \
  -H 'Service-Version: 2020-10-12' \
  "$AGGREGATION_BASE_URL/accounts/$ACCOUNT_ID/payments"
