curl -u "$ACCESS_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"days": 1}' \
  "$BASE_URL/sandbox/clock/advance"
