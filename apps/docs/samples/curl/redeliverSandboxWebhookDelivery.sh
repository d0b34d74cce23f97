curl -u "$ACCESS_TOKEN:" -X POST \
  "$BASE_URL/sandbox/webhook/deliveries/$DELIVERY_ID/redeliver"
