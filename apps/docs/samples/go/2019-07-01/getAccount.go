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
	response, err := client.GetAccount(ctx, os.Getenv("ACCOUNT_ID"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer response.Body.Close()
	if response.StatusCode != 200 {
		body, _ := io.ReadAll(response.Body)
		log.Fatalf("%d: %s", response.StatusCode, body)
	}
	var account map[string]any
	if err := json.NewDecoder(response.Body).Decode(&account); err != nil {
		log.Fatal(err)
	}
	fmt.Println(account["id"], account["name"], account["institution"], account["routing_numbers"])
}
