# Revokes the access token: every later request with it answers 403.
curl -u "$AGGREGATION_TOKEN:" -X DELETE \
  -H 'Service-Version: 2020-10-12' \
  "$AGGREGATION_BASE_URL/accounts"
