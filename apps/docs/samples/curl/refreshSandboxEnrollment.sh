curl -u "$ACCESS_TOKEN:" -X POST \
  "$BASE_URL/sandbox/enrollment/refresh"
