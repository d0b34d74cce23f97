curl -u "$ACCESS_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"type": "webhook.test"}' \
  http://localhost:3000/sandbox/events
