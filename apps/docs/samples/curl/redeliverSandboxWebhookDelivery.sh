curl -u "$ACCESS_TOKEN:" -X POST \
  "http://localhost:3000/sandbox/webhook/deliveries/$DELIVERY_ID/redeliver"
