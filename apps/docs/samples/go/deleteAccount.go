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

	// Removes this application's access to one account; the enrollment's other accounts stay.
	response, err := client.DeleteAccountWithResponse(ctx, os.Getenv("ACCOUNT_ID"), nil)
	if err != nil {
		log.Fatal(err)
	}
	if response.StatusCode() != 204 {
		log.Fatalf("%d: %s", response.StatusCode(), response.Body)
	}
	fmt.Println("access removed:", response.StatusCode())
}
