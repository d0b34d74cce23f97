curl -X POST \
  -H 'Content-Type: application/json' \
  -d "{\"application_id\": \"$APPLICATION_ID\", \"institution_id\": \"chase\", \"username\": \"username\", \"password\": \"password\"}" \
  "$AGGREGATION_BASE_URL/sandbox/connect/sessions/$SESSION_ID/credentials"
