# Within 72 hours of an upgrade; afterwards 422 application_version.rollback_expired.
curl -u "$ACCESS_TOKEN:" -X POST \
  "$BASE_URL/sandbox/application/version/rollback"
