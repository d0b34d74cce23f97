// Smoke program of the generated Go client against a running sandbox server (AGGREGATION_BASE_URL): enrolls a sandbox
// user, lists the accounts, pages through the transactions with count and from_id, and reads a 404 as the
// Error schema. Exits non-zero on the first thing that is not as the description says.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"

	aggregation "aggregation.example/client"
)

const version = "2020-10-12"

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "go smoke: "+format+"\n", args...)
	os.Exit(1)
}

// enroll creates a sandbox enrollment through the sandbox control API (a separate document, so plain HTTP).
func enroll(baseURL string) string {
	body, _ := json.Marshal(map[string]string{"username": "username", "password": "password"})
	response, err := http.Post(baseURL+"/sandbox/enrollments", "application/json", bytes.NewReader(body))
	if err != nil {
		fail("enroll: %v", err)
	}
	defer response.Body.Close()
	if response.StatusCode != http.StatusCreated {
		fail("enroll: status %d", response.StatusCode)
	}
	var created struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(response.Body).Decode(&created); err != nil || created.AccessToken == "" {
		fail("enroll: no access token (%v)", err)
	}
	return created.AccessToken
}

func main() {
	baseURL := os.Getenv("AGGREGATION_BASE_URL")
	if baseURL == "" {
		fail("set AGGREGATION_BASE_URL to the server's base URL")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	token := enroll(baseURL)
	// HTTP Basic with the token as the username, and the version pinned on every request.
	authenticate := func(_ context.Context, request *http.Request) error {
		request.SetBasicAuth(token, "")
		request.Header.Set("Service-Version", version)
		return nil
	}
	client, err := aggregation.NewClientWithResponses(baseURL, aggregation.WithRequestEditorFn(authenticate))
	if err != nil {
		fail("client: %v", err)
	}

	listed, err := client.ListAccountsWithResponse(ctx, nil)
	if err != nil {
		fail("list accounts: %v", err)
	}
	if listed.JSON200 == nil {
		fail("list accounts: status %d: %s", listed.StatusCode(), listed.Body)
	}
	accounts := *listed.JSON200
	if len(accounts) == 0 {
		fail("list accounts: none")
	}
	account := accounts[0]
	for _, candidate := range accounts {
		if candidate.Subtype == aggregation.Checking {
			account = candidate
		}
	}

	// Newest first; each page starts after the last transaction of the previous one.
	const pageSize = aggregation.Count(25)
	seen := map[string]bool{}
	pages := 0
	var fromID *aggregation.FromId
	for {
		count := pageSize
		page, err := client.ListTransactionsWithResponse(ctx, account.Id, &aggregation.ListTransactionsParams{Count: &count, FromId: fromID})
		if err != nil {
			fail("list transactions: %v", err)
		}
		if page.JSON200 == nil {
			fail("list transactions: status %d: %s", page.StatusCode(), page.Body)
		}
		transactions := *page.JSON200
		pages++
		for i, transaction := range transactions {
			if seen[transaction.Id] {
				fail("list transactions: %s came twice", transaction.Id)
			}
			seen[transaction.Id] = true
			if i > 0 && transactions[i-1].Date.Before(transaction.Date.Time) {
				fail("list transactions: not newest first")
			}
		}
		if len(transactions) < int(pageSize) {
			break
		}
		last := transactions[len(transactions)-1].Id
		fromID = &last
		if pages > 1000 {
			fail("list transactions: paging does not end")
		}
	}
	all, err := client.ListTransactionsWithResponse(ctx, account.Id, nil)
	if err != nil {
		fail("list all transactions: %v", err)
	}
	if all.JSON200 == nil || len(*all.JSON200) != len(seen) {
		fail("list transactions: %d paged, but the full list differs (status %d)", len(seen), all.StatusCode())
	}

	missing, err := client.GetAccountWithResponse(ctx, "acc_does_not_exist", nil)
	if err != nil {
		fail("get unknown account: %v", err)
	}
	if missing.StatusCode() != http.StatusNotFound || missing.JSON404 == nil || missing.JSON404.Error.Code == "" {
		fail("get unknown account: want a 404 Error body, got %d: %s", missing.StatusCode(), missing.Body)
	}

	fmt.Printf("go smoke: ok: %d accounts, %d transactions of %s in %d pages of %d, unknown account: %d %s\n",
		len(accounts), len(seen), account.Id, pages, pageSize, missing.StatusCode(), missing.JSON404.Error.Code)
}
