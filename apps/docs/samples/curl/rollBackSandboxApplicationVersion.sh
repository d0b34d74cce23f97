# Within 72 hours of an upgrade; afterwards 422 application_version.rollback_expired.
curl -u "$AGGREGATION_TOKEN:" -X POST \
  "$AGGREGATION_BASE_URL/sandbox/application/version/rollback"
