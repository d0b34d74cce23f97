# Enrolls a sandbox user; the answer carries the access token of the new enrollment.
curl -X POST \
  -H 'Content-Type: application/json' \
  -d '{"username": "username", "password": "password"}' \
  "$AGGREGATION_BASE_URL/sandbox/enrollments"
