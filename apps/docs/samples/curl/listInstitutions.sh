# No access token needed.
curl -H 'Service-Version: 2020-10-12' \
  "$AGGREGATION_BASE_URL/institutions"
