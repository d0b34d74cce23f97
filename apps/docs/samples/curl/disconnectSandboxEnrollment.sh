curl -u "$ACCESS_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"reason": "credentials_changed"}' \
  "$BASE_URL/sandbox/enrollment/disconnect"
