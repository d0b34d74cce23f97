curl -X POST \
  -H 'Content-Type: application/json' \
  -d "{\"application_id\": \"$APPLICATION_ID\"}" \
  "$AGGREGATION_BASE_URL/sandbox/connect/sessions/$SESSION_ID/approve"
