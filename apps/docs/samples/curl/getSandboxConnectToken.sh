curl -u "$AGGREGATION_TOKEN:" \
  "$AGGREGATION_BASE_URL/sandbox/connect_tokens/$CONNECT_TOKEN"
