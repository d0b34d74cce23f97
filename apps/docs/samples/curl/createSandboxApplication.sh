# Creates an application; keep its key, which is shown only here.
curl -X POST \
  -H 'Content-Type: application/json' \
  -d '{}' \
  "$BASE_URL/sandbox/applications"
