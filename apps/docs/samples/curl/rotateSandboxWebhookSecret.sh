# A new secret signs from now on; the current one signs too until
# expire_current_at (a time in the past expires it at once).
curl -u "$AGGREGATION_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"expire_current_at": "2030-01-01T00:00:00Z"}' \
  "$AGGREGATION_BASE_URL/sandbox/webhook/secrets"
