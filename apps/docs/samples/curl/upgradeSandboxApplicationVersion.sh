curl -u "$ACCESS_TOKEN:" -X POST \
  -H 'Content-Type: application/json' \
  -d '{"version": "2020-10-12"}' \
  http://localhost:3000/sandbox/application/version
