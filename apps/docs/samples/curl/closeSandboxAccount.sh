curl -u "$ACCESS_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"reason": "fraud"}' \
  "$BASE_URL/sandbox/accounts/$ACCOUNT_ID/close"
