curl -u "$ACCESS_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"reason": "fraud"}' \
  "http://localhost:3000/sandbox/accounts/$ACCOUNT_ID/close"
