curl -u "$AGGREGATION_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"version": "2020-10-12"}' \
  "$AGGREGATION_BASE_URL/sandbox/application/version"
