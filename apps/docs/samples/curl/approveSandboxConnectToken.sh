# Approves the MFA challenge as its user would; then send the request that answered it again, with the same
# Idempotency-Key and body.
curl -u "$AGGREGATION_TOKEN:" -X POST \
  "$AGGREGATION_BASE_URL/sandbox/connect_tokens/$CONNECT_TOKEN/approve"
