# Follows the request log for 3 seconds (without timeout_seconds, until you stop it),
# while another request shows up in it.
curl -N -u "$AGGREGATION_TOKEN:" "$AGGREGATION_BASE_URL/sandbox/logs?timeout_seconds=3" &
sleep 1
curl -u "$AGGREGATION_TOKEN:" "$AGGREGATION_BASE_URL/accounts" > /dev/null
wait
