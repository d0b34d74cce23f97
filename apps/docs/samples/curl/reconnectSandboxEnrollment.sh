# Reconnects the token's disconnected enrollment, as its user signing in again would.
curl -u "$AGGREGATION_TOKEN:" -X POST \
  "$AGGREGATION_BASE_URL/sandbox/enrollment/reconnect"
