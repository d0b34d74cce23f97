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

	response, err := client.GetPaymentWithResponse(ctx, os.Getenv("ACCOUNT_ID"), os.Getenv("PAYMENT_ID"), nil)
	if err != nil {
		log.Fatal(err)
	}
	if response.JSON200 == nil {
		log.Fatalf("%d: %s", response.StatusCode(), response.Body)
	}
	payment := response.JSON200
	fmt.Println(payment.Id, payment.Amount, payment.Memo, payment.Reference)
}
