curl -u "$ACCESS_TOKEN:" \
  http://localhost:3000/sandbox/application
