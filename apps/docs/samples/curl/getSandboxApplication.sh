curl -u "$ACCESS_TOKEN:" \
  "$BASE_URL/sandbox/application"
