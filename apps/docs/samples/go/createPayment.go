package main

import (
	"context"
	"crypto/rand"
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

	// One Idempotency-Key per payment: keep it to retry this same payment safely.
	key := rand.Text()
	payee := aggregation.PaymentPayeeInput{Scheme: aggregation.PaymentSchemeNameZelle, Address: "jane.doe@example.com"}
	name, kind := "Jane Doe", aggregation.PayeeTypePerson
	payee.Name, payee.Type = &name, &kind
	response, err := client.CreatePaymentWithResponse(ctx, os.Getenv("ACCOUNT_ID"),
		&aggregation.CreatePaymentParams{IdempotencyKey: &key},
		aggregation.CreatePaymentRequest{Amount: "25.00", Memo: "Dinner split", Payee: payee})
	if err != nil {
		log.Fatal(err)
	}
	switch {
	case response.JSON202 != nil: // 202: the payment
		payment, err := response.JSON202.AsPayment()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("Payment", payment.Id, payment.Reference)
	case response.JSON200 != nil: // 200: the MFA challenge; send the same request with the same key once it is met
		challenge, err := response.JSON200.AsMfaChallenge()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("MFA required", challenge.ConnectToken, key)
	default:
		log.Fatalf("%d: %s", response.StatusCode(), response.Body)
	}
}
