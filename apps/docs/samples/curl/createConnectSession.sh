# What the enrollment widget does when it opens: a session of the application, for a new user.
curl -X POST \
  -H 'Content-Type: application/json' \
  -d "{\"application_id\": \"$APPLICATION_ID\", \"products\": [\"transactions\"], \"select_account\": \"multiple\", \"nonce\": \"n-8f3k2\"}" \
  "$AGGREGATION_BASE_URL/sandbox/connect/sessions"
