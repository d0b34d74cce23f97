package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"

	aggregation "aggregation.example/client"
)

func main() {
	client, err := aggregation.NewAuthenticatedClient(
		os.Getenv("AGGREGATION_BASE_URL"),
		os.Getenv("AGGREGATION_TOKEN"),
		aggregation.WithVersion("2019-07-01"),
	)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	// The client's types are the current version's; this answer's shape in 2019-07-01 differs: read it as JSON
	// through the client's authenticated connection.
	response, err := client.GetAccountBalances(ctx, os.Getenv("ACCOUNT_ID"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer response.Body.Close()
	if response.StatusCode != 200 {
		body, _ := io.ReadAll(response.Body)
		log.Fatalf("%d: %s", response.StatusCode, body)
	}
	var balances []map[string]any // [{"type": "ledger" | "available", "amount": ...}]
	if err := json.NewDecoder(response.Body).Decode(&balances); err != nil {
		log.Fatal(err)
	}
	for _, balance := range balances {
		fmt.Println(balance["type"], balance["amount"])
	}
}
