curl -u "$ACCESS_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"days": 1}' \
  http://localhost:3000/sandbox/clock/advance
