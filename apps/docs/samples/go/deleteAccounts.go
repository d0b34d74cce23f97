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

	// Removes access to every account of the enrollment: the token stops working.
	response, err := client.DeleteAccountsWithResponse(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	if response.StatusCode() != 204 {
		log.Fatalf("%d: %s", response.StatusCode(), response.Body)
	}
	fmt.Println("enrollment removed:", response.StatusCode())
}
