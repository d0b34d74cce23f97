# Grants only the account the user chose among those the session offered.
curl -X POST \
  -H 'Content-Type: application/json' \
  -d "{\"application_id\": \"$APPLICATION_ID\", \"account_ids\": [\"$ACCOUNT_ID\"]}" \
  "$AGGREGATION_BASE_URL/sandbox/connect/sessions/$SESSION_ID/accounts"
