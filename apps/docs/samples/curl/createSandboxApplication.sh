# Creates an application; keep its key, which is shown only here.
curl -X POST \
  -H 'Content-Type: application/json' \
  -d '{}' \
  "$AGGREGATION_BASE_URL/sandbox/applications"
