curl -u "$ACCESS_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"type": "webhook.test"}' \
  "$BASE_URL/sandbox/events"
