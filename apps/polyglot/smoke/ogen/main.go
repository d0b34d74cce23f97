// Smoke program of ogen's client (from the OpenAPI 3.0 variant): the shared scenario (apps/polyglot/src/smoke.ts)
// against a running sandbox server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), one line per step, exiting 1 when a
// step failed. Each answer is a type of its own, told apart with a type switch.
package main

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	aggregation "aggregation.example/ogen"
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

// token sends the access token as the HTTP Basic username, with an empty password.
type token string

func (t token) BasicAuth(context.Context, aggregation.OperationName) (aggregation.BasicAuth, error) {
	return aggregation.BasicAuth{Username: string(t)}, nil
}

func ids(transactions []aggregation.Transaction) []string {
	out := make([]string, len(transactions))
	for i, transaction := range transactions {
		out[i] = transaction.ID
	}
	return out
}

func main() {
	client, err := aggregation.NewClient(os.Getenv("AGGREGATION_BASE_URL"), token(os.Getenv("AGGREGATION_TOKEN")))
	if err != nil {
		fmt.Println("client:", err)
		os.Exit(1)
	}
	ctx := context.Background()
	money := regexp.MustCompile(`^-?\d+\.\d{2}$`)
	var checking string

	step("accounts", func() (string, error) {
		answer, err := client.ListAccounts(ctx, aggregation.ListAccountsParams{})
		if err != nil {
			return "", err
		}
		accounts, ok := answer.(*aggregation.ListAccountsOKHeaders)
		if !ok {
			return "", fmt.Errorf("answer %T", answer)
		}
		for _, account := range accounts.Response {
			if account.Links.Payments.Set {
				checking = account.ID
			}
		}
		return fmt.Sprintf("%d accounts", len(accounts.Response)), nil
	})

	list := func(params aggregation.ListTransactionsParams) ([]aggregation.Transaction, error) {
		params.AccountID = checking
		answer, err := client.ListTransactions(ctx, params)
		if err != nil {
			return nil, err
		}
		page, ok := answer.(*aggregation.ListTransactionsOKHeaders)
		if !ok {
			return nil, fmt.Errorf("answer %T", answer)
		}
		return page.Response, nil
	}

	step("transactions", func() (string, error) {
		var seen []aggregation.Transaction
		pages := 0
		params := aggregation.ListTransactionsParams{Count: aggregation.NewOptInt32(pageSize)}
		for pages < 1000 {
			page, err := list(params)
			if err != nil {
				return "", err
			}
			pages++
			seen = append(seen, page...)
			if len(page) < pageSize {
				break
			}
			params.FromID = aggregation.NewOptString(page[len(page)-1].ID)
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
		answer, err := client.GetAccountBalances(ctx, aggregation.GetAccountBalancesParams{AccountID: checking})
		if err != nil {
			return "", err
		}
		balances, ok := answer.(*aggregation.AccountBalancesHeaders)
		if !ok || !money.MatchString(string(balances.Response.Ledger)) || !money.MatchString(string(balances.Response.Available)) {
			return "", fmt.Errorf("answer %T %+v", answer, answer)
		}
		return fmt.Sprintf("ledger %s, available %s", balances.Response.Ledger, balances.Response.Available), nil
	})

	payee := aggregation.PaymentPayeeInput{
		Scheme:  aggregation.PaymentSchemeNameZelle,
		Address: "jane.doe@example.com",
		Name:    aggregation.NewOptPayeeName("Jane Doe"),
		Type:    aggregation.NewOptPayeeType(aggregation.PayeeTypePerson),
	}
	pay := func(memo string) (aggregation.CreatePaymentRes, error) {
		request := aggregation.CreatePaymentRequest{Amount: "1.00", Memo: memo, Payee: payee}
		params := aggregation.CreatePaymentParams{AccountID: checking, IdempotencyKey: aggregation.NewOptString("smoke-" + checking + "-" + memo)}
		return client.CreatePayment(ctx, &request, params)
	}

	step("payment_mfa", func() (string, error) {
		answer, err := pay("mfa")
		if err != nil {
			return "", err
		}
		// 200: the shared schema, under its own name.
		challenge, ok := answer.(*aggregation.PaymentOrMfaChallengeHeaders)
		if !ok || challenge.Response.Type != aggregation.MfaChallengePaymentOrMfaChallenge || challenge.Response.MfaChallenge.ConnectToken == "" {
			return "", fmt.Errorf("answer %T %+v", answer, answer)
		}
		return "200 challenge with a connect_token", nil
	})

	step("payment", func() (string, error) {
		answer, err := pay("Lunch")
		if err != nil {
			return "", err
		}
		accepted, ok := answer.(*aggregation.CreatePaymentAcceptedHeaders)
		if !ok || accepted.Response.Type != aggregation.PaymentPaymentOrMfaChallenge {
			return "", fmt.Errorf("answer %T %+v", answer, answer)
		}
		payment := accepted.Response.Payment
		if !strings.HasPrefix(payment.ID, "pay_") || payment.Amount != "1.00" {
			return "", fmt.Errorf("payment %+v", payment)
		}
		return "202 Payment " + payment.ID, nil
	})

	createPayee := func(name, address string) (*aggregation.PayeeOrMfaChallenge, error) {
		request := aggregation.CreatePayeeRequest{Scheme: aggregation.PaymentSchemeNameZelle, Address: aggregation.PayeeAddress(address), Name: aggregation.PayeeName(name), Type: aggregation.PayeeTypePerson}
		answer, err := client.CreatePayee(ctx, &request, aggregation.CreatePayeeParams{AccountID: checking})
		if err != nil {
			return nil, err
		}
		created, ok := answer.(*aggregation.PayeeOrMfaChallengeHeaders)
		if !ok {
			return nil, fmt.Errorf("answer %T %+v", answer, answer)
		}
		return &created.Response, nil
	}

	step("payee_mfa", func() (string, error) {
		answer, err := createPayee("mfa", "mfa@example.com")
		if err != nil {
			return "", err
		}
		if answer.Type != aggregation.MfaChallengePayeeOrMfaChallenge || answer.MfaChallenge.ConnectToken == "" {
			return "", fmt.Errorf("no MFA challenge read: %+v", answer)
		}
		return "challenge with a connect_token", nil
	})

	step("payee", func() (string, error) {
		answer, err := createPayee("Sam Lee", "sam.lee@example.com")
		if err != nil {
			return "", err
		}
		if answer.Type != aggregation.PayeePayeeOrMfaChallenge || answer.Payee.Name != "Sam Lee" {
			return "", fmt.Errorf("no Payee read: %+v", answer)
		}
		return "Payee " + string(answer.Payee.Name), nil
	})

	step("error", func() (string, error) {
		answer, err := client.GetAccount(ctx, aggregation.GetAccountParams{AccountID: "acc_does_not_exist"})
		if err != nil {
			return "", err
		}
		notFound, ok := answer.(*aggregation.NotFoundHeaders)
		if !ok || notFound.Response.Error.Code == "" {
			return "", fmt.Errorf("answer %T %+v", answer, answer)
		}
		return "404 " + notFound.Response.Error.Code, nil
	})

	if failed {
		os.Exit(1)
	}
}
