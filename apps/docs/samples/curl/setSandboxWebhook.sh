curl -u "$ACCESS_TOKEN:" -X PUT \
  -H 'Content-Type: application/json' \
  -d '{"url": "http://localhost:8080/webhooks"}' \
  "$BASE_URL/sandbox/webhook"
