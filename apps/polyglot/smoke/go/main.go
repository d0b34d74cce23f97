// Smoke program of oapi-codegen's client: the shared scenario (apps/polyglot/src/smoke.ts) against a running sandbox
// server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), one line per step, exiting 1 when a step failed.
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"

	aggregation "aggregation.example/client"
)

const (
	version  = "2020-10-12"
	pageSize = 25
)

var failed bool

func step(name string, body func() (string, error)) {
	detail, err := body()
	if err != nil {
		failed = true
		fmt.Printf("step %s: fail %s\n", name, strings.ReplaceAll(err.Error(), "\n", " "))
		return
	}
	fmt.Printf("step %s: ok %s\n", name, detail)
}

func ids(transactions []aggregation.Transaction) []string {
	out := make([]string, len(transactions))
	for i, transaction := range transactions {
		out[i] = transaction.Id
	}
	return out
}

func main() {
	baseURL, token := os.Getenv("AGGREGATION_BASE_URL"), os.Getenv("AGGREGATION_TOKEN")
	// HTTP Basic with the token as the username, and the version pinned on every request.
	authenticate := func(_ context.Context, request *http.Request) error {
		request.SetBasicAuth(token, "")
		request.Header.Set("Service-Version", version)
		return nil
	}
	client, err := aggregation.NewClientWithResponses(baseURL, aggregation.WithRequestEditorFn(authenticate))
	if err != nil {
		fmt.Println("client:", err)
		os.Exit(1)
	}
	ctx := context.Background()
	money := regexp.MustCompile(`^-?\d+\.\d{2}$`)
	var checking string

	step("accounts", func() (string, error) {
		response, err := client.ListAccountsWithResponse(ctx, nil)
		if err != nil || response.JSON200 == nil {
			return "", fmt.Errorf("%v %s", err, response.Status())
		}
		for _, account := range *response.JSON200 {
			if account.Links.Payments != nil {
				checking = account.Id
			}
		}
		if checking == "" {
			return "", errors.New("no account with payments")
		}
		return fmt.Sprintf("%d accounts", len(*response.JSON200)), nil
	})

	list := func(params aggregation.ListTransactionsParams) ([]aggregation.Transaction, error) {
		response, err := client.ListTransactionsWithResponse(ctx, checking, &params)
		if err != nil || response.JSON200 == nil {
			return nil, fmt.Errorf("list transactions: %v %s", err, response.Status())
		}
		return *response.JSON200, nil
	}

	step("transactions", func() (string, error) {
		var seen []aggregation.Transaction
		pages := 0
		count := aggregation.Count(pageSize)
		for params := (aggregation.ListTransactionsParams{Count: &count}); ; {
			page, err := list(params)
			if err != nil {
				return "", err
			}
			pages++
			seen = append(seen, page...)
			if len(page) < pageSize || pages > 1000 {
				break
			}
			last := page[len(page)-1].Id
			params.FromId = &last
		}
		everything, err := list(aggregation.ListTransactionsParams{})
		if err != nil {
			return "", err
		}
		if !slices.Equal(ids(everything), ids(seen)) {
			return "", fmt.Errorf("the pages (%d) differ from the full list (%d)", len(seen), len(everything))
		}
		return fmt.Sprintf("%d transactions in %d pages of %d", len(seen), pages, pageSize), nil
	})

	step("balances", func() (string, error) {
		response, err := client.GetAccountBalancesWithResponse(ctx, checking, nil)
		if err != nil || response.JSON200 == nil {
			return "", fmt.Errorf("%v %s", err, response.Status())
		}
		balances := response.JSON200
		if !money.MatchString(balances.Ledger) || !money.MatchString(balances.Available) {
			return "", fmt.Errorf("balances %+v", balances)
		}
		return fmt.Sprintf("ledger %s, available %s", balances.Ledger, balances.Available), nil
	})

	name, kind := "Jane Doe", aggregation.PAYEEPERSON
	payee := aggregation.PaymentPayeeInput{Scheme: aggregation.Zelle, Address: "jane.doe@example.com", Name: &name, Type: &kind}
	pay := func(memo string) (*aggregation.CreatePaymentResponse, error) {
		key := fmt.Sprintf("smoke-%s-%s", checking, memo)
		return client.CreatePaymentWithResponse(ctx, checking, &aggregation.CreatePaymentParams{IdempotencyKey: &key},
			aggregation.CreatePaymentJSONRequestBody{Amount: "1.00", Memo: memo, Payee: payee})
	}

	step("payment_mfa", func() (string, error) {
		response, err := pay("mfa")
		if err != nil || response.JSON200 == nil {
			return "", fmt.Errorf("%v %s", err, response.Status())
		}
		challenge, err := response.JSON200.AsMfaChallenge()
		if err != nil || challenge.ConnectToken == "" {
			return "", fmt.Errorf("no MFA challenge read: %v", err)
		}
		return "200 challenge with a connect_token", nil
	})

	step("payment", func() (string, error) {
		response, err := pay("Lunch")
		if err != nil || response.JSON202 == nil {
			return "", fmt.Errorf("%v %s", err, response.Status())
		}
		payment, err := response.JSON202.AsPayment()
		if err != nil || !strings.HasPrefix(payment.Id, "pay_") || payment.Amount != "1.00" {
			return "", fmt.Errorf("no Payment read: %v", err)
		}
		return "202 Payment " + payment.Id, nil
	})

	createPayee := func(name, address string) (*aggregation.CreatePayeeResponse, error) {
		response, err := client.CreatePayeeWithResponse(ctx, checking, nil, aggregation.CreatePayeeJSONRequestBody{
			Scheme: aggregation.Zelle, Address: address, Name: name, Type: aggregation.PAYEEPERSON,
		})
		if err == nil && response.JSON200 == nil {
			err = fmt.Errorf("status %s", response.Status())
		}
		return response, err
	}

	step("payee_mfa", func() (string, error) {
		response, err := createPayee("mfa", "mfa@example.com")
		if err != nil {
			return "", err
		}
		challenge, err := response.JSON200.AsMfaChallenge()
		if err != nil || challenge.ConnectToken == "" {
			return "", fmt.Errorf("no MFA challenge read: %v", err)
		}
		return "challenge with a connect_token", nil
	})

	step("payee", func() (string, error) {
		response, err := createPayee("Sam Lee", "sam.lee@example.com")
		if err != nil {
			return "", err
		}
		payee, err := response.JSON200.AsPayee()
		if err != nil || payee.Name != "Sam Lee" {
			return "", fmt.Errorf("no Payee read: %v", err)
		}
		return "Payee " + payee.Name, nil
	})

	step("error", func() (string, error) {
		response, err := client.GetAccountWithResponse(ctx, "acc_does_not_exist", nil)
		if err != nil {
			return "", err
		}
		if response.StatusCode() != 404 || response.JSON404 == nil || response.JSON404.Error.Code == "" {
			return "", fmt.Errorf("status %d, no Error read", response.StatusCode())
		}
		return "404 " + response.JSON404.Error.Code, nil
	})

	if failed {
		os.Exit(1)
	}
}
