curl -u "$ACCESS_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"reason": "credentials_changed"}' \
  http://localhost:3000/sandbox/enrollment/disconnect
