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
	response, err := client.GetTransaction(ctx, os.Getenv("ACCOUNT_ID"), os.Getenv("TRANSACTION_ID"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer response.Body.Close()
	if response.StatusCode != 200 {
		body, _ := io.ReadAll(response.Body)
		log.Fatalf("%d: %s", response.StatusCode, body)
	}
	var transaction map[string]any
	if err := json.NewDecoder(response.Body).Decode(&transaction); err != nil {
		log.Fatal(err)
	}
	fmt.Println(transaction["date"], transaction["amount"], transaction["description"], transaction["counterparty"])
}
