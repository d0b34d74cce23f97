curl -u "$AGGREGATION_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"days": 1}' \
  "$AGGREGATION_BASE_URL/sandbox/clock/advance"
