curl -u "$AGGREGATION_TOKEN:" \
  "$AGGREGATION_BASE_URL/sandbox/application"
