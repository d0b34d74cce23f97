curl -u "$AGGREGATION_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"reason": "fraud"}' \
  "$AGGREGATION_BASE_URL/sandbox/accounts/$ACCOUNT_ID/close"
