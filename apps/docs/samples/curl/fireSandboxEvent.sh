curl -u "$AGGREGATION_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"type": "webhook.test"}' \
  "$AGGREGATION_BASE_URL/sandbox/events"
