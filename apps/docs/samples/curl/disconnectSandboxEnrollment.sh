curl -u "$AGGREGATION_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"reason": "credentials_changed"}' \
  "$AGGREGATION_BASE_URL/sandbox/enrollment/disconnect"
