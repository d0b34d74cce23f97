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

	response, err := client.CreatePayeeWithResponse(ctx, os.Getenv("ACCOUNT_ID"), nil, aggregation.CreatePayeeRequest{
		Scheme:  aggregation.PaymentSchemeNameZelle,
		Address: "jane.doe@example.com",
		Name:    "Jane Doe",
		Type:    aggregation.PayeeTypePerson,
	})
	if err != nil {
		log.Fatal(err)
	}
	if response.JSON200 == nil {
		log.Fatalf("%d: %s", response.StatusCode(), response.Body)
	}
	// One answer, two shapes: the payee, or the MFA challenge (a connect_token) when the institution asks for it.
	if challenge, err := response.JSON200.AsMfaChallenge(); err == nil && challenge.ConnectToken != "" {
		fmt.Println("MFA required", challenge.ConnectToken)
		return
	}
	payee, err := response.JSON200.AsPayee()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("Payee", payee.Address, payee.Name)
}
