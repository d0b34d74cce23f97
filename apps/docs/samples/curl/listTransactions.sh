# Newest first. The next page starts after the last transaction received:
# pass its id as from_id.
curl -u "$AGGREGATION_TOKEN:" -G \
  -H 'Service-Version: 2020-10-12' \
  --data-urlencode 'count=25' \
  "$AGGREGATION_BASE_URL/accounts/$ACCOUNT_ID/transactions"
