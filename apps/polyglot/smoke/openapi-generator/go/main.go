// Smoke program of openapi-generator's go client: the shared scenario (apps/polyglot/src/smoke.ts) against a running
// sandbox server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), one line per step, exiting 1 when a step failed.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	aggregation "aggregation.example/openapi-generator/go"
)

const pageSize = 25

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
	configuration := aggregation.NewConfiguration()
	configuration.Servers = aggregation.ServerConfigurations{{URL: os.Getenv("AGGREGATION_BASE_URL")}}
	client := aggregation.NewAPIClient(configuration)
	// HTTP Basic with the token as the username and an empty password.
	ctx := context.WithValue(context.Background(), aggregation.ContextBasicAuth, aggregation.BasicAuth{UserName: os.Getenv("AGGREGATION_TOKEN")})
	money := regexp.MustCompile(`^-?\d+\.\d{2}$`)
	var checking string

	step("accounts", func() (string, error) {
		accounts, _, err := client.AccountsAPI.ListAccounts(ctx).Execute()
		if err != nil {
			return "", err
		}
		for _, account := range accounts {
			if account.Links.Payments != nil {
				checking = account.Id
			}
		}
		if checking == "" {
			return "", errors.New("no account with payments")
		}
		return fmt.Sprintf("%d accounts", len(accounts)), nil
	})

	step("transactions", func() (string, error) {
		var seen []aggregation.Transaction
		pages := 0
		for fromID := ""; ; {
			request := client.TransactionsAPI.ListTransactions(ctx, checking).Count(pageSize)
			if fromID != "" {
				request = request.FromId(fromID)
			}
			page, _, err := request.Execute()
			if err != nil {
				return "", err
			}
			pages++
			seen = append(seen, page...)
			if len(page) < pageSize || pages > 1000 {
				break
			}
			fromID = page[len(page)-1].Id
		}
		everything, _, err := client.TransactionsAPI.ListTransactions(ctx, checking).Execute()
		if err != nil {
			return "", err
		}
		if !slices.Equal(ids(everything), ids(seen)) {
			return "", fmt.Errorf("the pages (%d) differ from the full list (%d)", len(seen), len(everything))
		}
		return fmt.Sprintf("%d transactions in %d pages of %d", len(seen), pages, pageSize), nil
	})

	step("balances", func() (string, error) {
		balances, _, err := client.AccountsAPI.GetAccountBalances(ctx, checking).Execute()
		if err != nil {
			return "", err
		}
		if !money.MatchString(balances.Ledger) || !money.MatchString(balances.Available) {
			return "", fmt.Errorf("balances %+v", balances)
		}
		return fmt.Sprintf("ledger %s, available %s", balances.Ledger, balances.Available), nil
	})

	name, kind := "Jane Doe", aggregation.PAYEE_PERSON
	payee := aggregation.PaymentPayeeInput{Scheme: aggregation.ZELLE, Address: "jane.doe@example.com", Name: &name, Type: &kind}
	pay := func(memo string) (*aggregation.PaymentOrMfaChallenge, int, error) {
		answer, response, err := client.PaymentsAPI.CreatePayment(ctx, checking).
			CreatePaymentRequest(aggregation.CreatePaymentRequest{Amount: "1.00", Memo: memo, Payee: payee}).
			IdempotencyKey(fmt.Sprintf("smoke-%s-%s", checking, memo)).Execute()
		if err != nil {
			return nil, 0, err
		}
		return answer, response.StatusCode, nil
	}

	step("payment_mfa", func() (string, error) {
		answer, status, err := pay("mfa")
		if err != nil {
			return "", err
		}
		if status != 200 || answer.MfaChallenge == nil || answer.MfaChallenge.ConnectToken == "" {
			return "", fmt.Errorf("status %d, no MFA challenge read", status)
		}
		return "200 challenge with a connect_token", nil
	})

	step("payment", func() (string, error) {
		answer, status, err := pay("Lunch")
		if err != nil {
			return "", err
		}
		if status != 202 || answer.Payment == nil || !strings.HasPrefix(answer.Payment.Id, "pay_") || answer.Payment.Amount != "1.00" {
			return "", fmt.Errorf("status %d, no Payment read", status)
		}
		return "202 Payment " + answer.Payment.Id, nil
	})

	createPayee := func(name, address string) (*aggregation.PayeeOrMfaChallenge, error) {
		answer, _, err := client.PaymentsAPI.CreatePayee(ctx, checking).CreatePayeeRequest(aggregation.CreatePayeeRequest{
			Scheme: aggregation.ZELLE, Address: address, Name: name, Type: aggregation.PAYEE_PERSON,
		}).Execute()
		return answer, err
	}

	step("payee_mfa", func() (string, error) {
		answer, err := createPayee("mfa", "mfa@example.com")
		if err != nil {
			return "", err
		}
		if answer.MfaChallenge == nil || answer.MfaChallenge.ConnectToken == "" {
			return "", errors.New("no MFA challenge read")
		}
		return "challenge with a connect_token", nil
	})

	step("payee", func() (string, error) {
		answer, err := createPayee("Sam Lee", "sam.lee@example.com")
		if err != nil {
			return "", err
		}
		if answer.Payee == nil || answer.Payee.Name != "Sam Lee" {
			return "", errors.New("no Payee read")
		}
		return "Payee " + answer.Payee.Name, nil
	})

	step("error", func() (string, error) {
		_, response, err := client.AccountsAPI.GetAccount(ctx, "acc_does_not_exist").Execute()
		var apiError *aggregation.GenericOpenAPIError
		if !errors.As(err, &apiError) {
			return "", fmt.Errorf("not a GenericOpenAPIError: %v", err)
		}
		model, ok := apiError.Model().(aggregation.Error)
		if !ok || response.StatusCode != 404 || model.Error.Code == "" {
			return "", fmt.Errorf("status %d, model %T", response.StatusCode, apiError.Model())
		}
		return "404 " + model.Error.Code, nil
	})

	if failed {
		os.Exit(1)
	}
}
