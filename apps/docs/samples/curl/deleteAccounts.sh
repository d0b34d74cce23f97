# Revokes the access token: every later request with it answers 403.
curl -u "$ACCESS_TOKEN:" -X DELETE \
  -H 'Service-Version: 2020-10-12' \
  "$BASE_URL/accounts"
