curl -u "$AGGREGATION_TOKEN:" -X PUT \
  -H 'Content-Type: application/json' \
  -d '{"url": "http://localhost:8080/webhooks"}' \
  "$AGGREGATION_BASE_URL/sandbox/webhook"
