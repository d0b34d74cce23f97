# No access token needed: the links to follow.
curl -H 'Service-Version: 2020-10-12' \
  "$AGGREGATION_BASE_URL/"
