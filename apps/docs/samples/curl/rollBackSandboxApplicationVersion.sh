# Within 72 hours of an upgrade; afterwards 422 application_version.rollback_expired.
curl -u "$ACCESS_TOKEN:" -X POST \
  http://localhost:3000/sandbox/application/version/rollback
