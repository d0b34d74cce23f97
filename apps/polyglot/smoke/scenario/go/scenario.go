// Package scenario is the shared smoke scenario (apps/polyglot/src/smoke.ts) for the Go clients. Each program says
// how its generated client makes each call and what it read (Client); Run runs the steps against a sandbox server
// (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), prints one line per step, `step <name>: ok <what it saw>` or
// `step <name>: fail <why>`, and exits 1 when a step failed.
package scenario

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
)

// PageSize is the count of each page of transactions.
const PageSize = 25

// Account is what the scenario needs of an account.
type Account struct {
	ID     string
	CanPay bool
}

// Transaction is what the scenario needs of a transaction; Date is YYYY-MM-DD.
type Transaction struct{ ID, Date string }

// Created is what a client read from a payment or payee answer: the challenge's token, or the created resource's
// fields. Status is 0 when the client does not expose it.
type Created struct {
	Status                         int
	ConnectToken, ID, Amount, Name string
}

// Client is a generated client's calls.
type Client interface {
	ListAccounts() ([]Account, error)
	// ListTransactions lists a page of count transactions after fromID (every one when count is 0), newest first.
	ListTransactions(accountID string, count int, fromID string) ([]Transaction, error)
	Balances(accountID string) (ledger, available string, err error)
	// Pay pays 1.00 to jane.doe@example.com (a new payee, Jane Doe, a person) with an Idempotency-Key.
	Pay(accountID, memo string) (Created, error)
	// AddPayee creates a Zelle payee, a person.
	AddPayee(accountID, name, address string) (Created, error)
	// MissingAccount asks for an account that does not exist and reads the error body as the Error model.
	MissingAccount(accountID string) (status int, code string, err error)
}

// Sandbox is the server and the access token the runner gives.
func Sandbox() (baseURL, token string) {
	baseURL, token = os.Getenv("AGGREGATION_BASE_URL"), os.Getenv("AGGREGATION_TOKEN")
	if baseURL == "" || token == "" {
		fmt.Println("set AGGREGATION_BASE_URL and AGGREGATION_TOKEN")
		os.Exit(2)
	}
	return baseURL, token
}

var money = regexp.MustCompile(`^-?\d+\.\d{2}$`)

func ids(transactions []Transaction) []string {
	out := make([]string, len(transactions))
	for i, transaction := range transactions {
		out[i] = transaction.ID
	}
	return out
}

// Run runs the scenario's steps with the client, then exits.
func Run(client Client) {
	failed := false
	step := func(name string, body func() (string, error)) {
		detail, err := body()
		if err != nil {
			failed = true
			fmt.Printf("step %s: fail %s\n", name, strings.ReplaceAll(err.Error(), "\n", " "))
			return
		}
		fmt.Printf("step %s: ok %s\n", name, detail)
	}
	// A client that does not expose the status is judged by what it read.
	status := func(answer Created, expected int) bool { return answer.Status == 0 || answer.Status == expected }
	var accountID string

	step("accounts", func() (string, error) {
		accounts, err := client.ListAccounts()
		if err != nil {
			return "", err
		}
		for _, account := range accounts {
			if account.CanPay {
				accountID = account.ID
			}
		}
		if accountID == "" {
			return "", errors.New("no account with payments")
		}
		return fmt.Sprintf("%d accounts", len(accounts)), nil
	})

	step("transactions", func() (string, error) {
		var seen []Transaction
		pages := 0
		for fromID := ""; ; {
			page, err := client.ListTransactions(accountID, PageSize, fromID)
			if err != nil {
				return "", err
			}
			pages++
			for i := 1; i < len(page); i++ {
				if page[i].Date > page[i-1].Date {
					return "", errors.New("a page is not newest first")
				}
			}
			seen = append(seen, page...)
			if len(page) < PageSize {
				break
			}
			if pages >= 1000 {
				return "", errors.New("paging does not end")
			}
			fromID = page[len(page)-1].ID
		}
		everything, err := client.ListTransactions(accountID, 0, "")
		if err != nil {
			return "", err
		}
		if !slices.Equal(ids(everything), ids(seen)) {
			return "", fmt.Errorf("the pages (%d) differ from the full list (%d)", len(seen), len(everything))
		}
		return fmt.Sprintf("%d transactions in %d pages of %d", len(seen), pages, PageSize), nil
	})

	step("balances", func() (string, error) {
		ledger, available, err := client.Balances(accountID)
		if err != nil {
			return "", err
		}
		if !money.MatchString(ledger) || !money.MatchString(available) {
			return "", fmt.Errorf("balances %q, %q", ledger, available)
		}
		return fmt.Sprintf("ledger %s, available %s", ledger, available), nil
	})

	step("payment_mfa", func() (string, error) {
		answer, err := client.Pay(accountID, "mfa")
		if err != nil {
			return "", err
		}
		if !status(answer, 200) || answer.ConnectToken == "" {
			return "", fmt.Errorf("no MFA challenge read: %+v", answer)
		}
		return "200 challenge with a connect_token", nil
	})

	step("payment", func() (string, error) {
		answer, err := client.Pay(accountID, "Lunch")
		if err != nil {
			return "", err
		}
		if !status(answer, 202) || !strings.HasPrefix(answer.ID, "pay_") || answer.Amount != "1.00" {
			return "", fmt.Errorf("no Payment read: %+v", answer)
		}
		return "202 Payment " + answer.ID, nil
	})

	step("payee_mfa", func() (string, error) {
		answer, err := client.AddPayee(accountID, "mfa", "mfa@example.com")
		if err != nil {
			return "", err
		}
		if !status(answer, 200) || answer.ConnectToken == "" {
			return "", fmt.Errorf("no MFA challenge read: %+v", answer)
		}
		return "challenge with a connect_token", nil
	})

	step("payee", func() (string, error) {
		answer, err := client.AddPayee(accountID, "Sam Lee", "sam.lee@example.com")
		if err != nil {
			return "", err
		}
		if answer.Name != "Sam Lee" {
			return "", fmt.Errorf("no Payee read: %+v", answer)
		}
		return "Payee " + answer.Name, nil
	})

	step("error", func() (string, error) {
		code, message, err := client.MissingAccount("acc_does_not_exist")
		if err != nil {
			return "", err
		}
		if code != 404 || message == "" {
			return "", fmt.Errorf("status %d, no Error read", code)
		}
		return "404 " + message, nil
	})

	if failed {
		os.Exit(1)
	}
	os.Exit(0)
}
