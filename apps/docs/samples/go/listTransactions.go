package main

import (
	"context"
	"fmt"
	"log"
	"os"

	aggregation "aggregation.example/client"
)

func main() {
	client, err := aggregation.NewAuthenticatedClient(
		os.Getenv("AGGREGATION_BASE_URL"),
		os.Getenv("AGGREGATION_TOKEN"),
		aggregation.WithVersion("2020-10-12"),
	)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	// Newest first. The next page starts after the last transaction received: pass its id as from_id.
	count := aggregation.Count(25)
	params := &aggregation.ListTransactionsParams{Count: &count}
	response, err := client.ListTransactionsWithResponse(ctx, os.Getenv("ACCOUNT_ID"), params)
	if err != nil {
		log.Fatal(err)
	}
	if response.JSON200 == nil {
		log.Fatalf("%d: %s", response.StatusCode(), response.Body)
	}
	page := *response.JSON200
	for _, transaction := range page {
		fmt.Println(transaction.Date, transaction.Amount, transaction.Description)
	}
	if len(page) > 0 {
		params.FromId = &page[len(page)-1].Id
		older, err := client.ListTransactionsWithResponse(ctx, os.Getenv("ACCOUNT_ID"), params)
		if err != nil || older.JSON200 == nil {
			log.Fatal("the next page: ", err)
		}
		fmt.Println(len(*older.JSON200), "older transactions")
	}
}
