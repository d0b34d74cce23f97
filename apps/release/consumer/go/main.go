// An integrator's Go program against the released module: lists the sandbox user's accounts, verifies a signed
// webhook and sees a forged one refused, and prints what it saw as JSON.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	aggregation "aggregation.example/client"
)

type input struct {
	BaseURL string  `json:"baseUrl"`
	Token   string  `json:"token"`
	Body    string  `json:"body"`
	Header  string  `json:"header"`
	Secret  string  `json:"secret"`
	Now     float64 `json:"now"`
}

func main() {
	var in input
	if err := json.Unmarshal([]byte(os.Getenv("CONSUMER_INPUT")), &in); err != nil {
		log.Fatal(err)
	}
	client, err := aggregation.NewAuthenticatedClient(in.BaseURL, in.Token)
	if err != nil {
		log.Fatal(err)
	}
	response, err := client.ListAccountsWithResponse(context.Background(), nil)
	if err != nil {
		log.Fatal(err)
	}
	if response.JSON200 == nil {
		log.Fatalf("%d: %s", response.StatusCode(), response.Body)
	}
	accounts := []string{}
	for _, account := range *response.JSON200 {
		accounts = append(accounts, string(account.Type))
	}

	options := &aggregation.VerifyOptions{Now: time.UnixMilli(int64(in.Now))}
	event, err := aggregation.VerifyWebhook([]byte(in.Body), in.Header, []string{in.Secret}, options)
	if err != nil {
		log.Fatal(err)
	}
	forged := "accepted"
	tampered := strings.Replace(in.Body, `"payload":{}`, `"payload":{"forged":true}`, 1)
	var refused *aggregation.WebhookVerificationError
	if _, err := aggregation.VerifyWebhook([]byte(tampered), in.Header, []string{in.Secret}, options); errors.As(err, &refused) {
		forged = refused.Reason
	}
	out, _ := json.Marshal(map[string]any{"accounts": accounts, "event": string(event.Type), "forged": forged})
	fmt.Println(string(out))
}
