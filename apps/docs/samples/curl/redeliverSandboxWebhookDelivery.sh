curl -u "$AGGREGATION_TOKEN:" -X POST \
  "$AGGREGATION_BASE_URL/sandbox/webhook/deliveries/$DELIVERY_ID/redeliver"
