curl -u "$AGGREGATION_TOKEN:" -X POST \
  "$AGGREGATION_BASE_URL/sandbox/enrollment/refresh"
