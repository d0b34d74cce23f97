// Smoke program of oapi-codegen's client: the shared scenario (smoke/scenario/go) with this client's calls.
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	aggregation "aggregation.example/client"
	"aggregation.example/scenario"
)

const version = "2020-10-12"

type client struct {
	*aggregation.ClientWithResponses
}

var ctx = context.Background()

// answered is the error of a call that failed, or answered without the body expected.
func answered(err error, ok bool, status string) error {
	if err != nil || !ok {
		return fmt.Errorf("%v %s", err, status)
	}
	return nil
}

func (c client) ListAccounts() ([]scenario.Account, error) {
	response, err := c.ListAccountsWithResponse(ctx, nil)
	if err := answered(err, err == nil && response.JSON200 != nil, response.Status()); err != nil {
		return nil, err
	}
	var accounts []scenario.Account
	for _, account := range *response.JSON200 {
		accounts = append(accounts, scenario.Account{ID: account.Id, CanPay: account.Links.Payments != nil})
	}
	return accounts, nil
}

func (c client) ListTransactions(accountID string, count int, fromID string) ([]scenario.Transaction, error) {
	var params aggregation.ListTransactionsParams
	if count > 0 {
		pageSize := aggregation.Count(count)
		params.Count = &pageSize
	}
	if fromID != "" {
		params.FromId = &fromID
	}
	response, err := c.ListTransactionsWithResponse(ctx, accountID, &params)
	if err := answered(err, err == nil && response.JSON200 != nil, response.Status()); err != nil {
		return nil, err
	}
	var transactions []scenario.Transaction
	for _, transaction := range *response.JSON200 {
		transactions = append(transactions, scenario.Transaction{ID: transaction.Id, Date: transaction.Date.String()})
	}
	return transactions, nil
}

func (c client) Balances(accountID string) (string, string, error) {
	response, err := c.GetAccountBalancesWithResponse(ctx, accountID, nil)
	if err := answered(err, err == nil && response.JSON200 != nil, response.Status()); err != nil {
		return "", "", err
	}
	return response.JSON200.Ledger, response.JSON200.Available, nil
}

func (c client) Pay(accountID, memo string) (scenario.Created, error) {
	name, kind := "Jane Doe", aggregation.PayeeTypePerson
	payee := aggregation.PaymentPayeeInput{Scheme: aggregation.PaymentSchemeNameZelle, Address: "jane.doe@example.com", Name: &name, Type: &kind}
	key := fmt.Sprintf("smoke-%s-%s", accountID, memo)
	response, err := c.CreatePaymentWithResponse(ctx, accountID, &aggregation.CreatePaymentParams{IdempotencyKey: &key},
		aggregation.CreatePaymentJSONRequestBody{Amount: "1.00", Memo: memo, Payee: payee})
	if err != nil {
		return scenario.Created{}, err
	}
	created := scenario.Created{Status: response.StatusCode()}
	// Both answers are PaymentOrMfaChallenge: the status says which branch to read.
	switch {
	case response.JSON200 != nil:
		challenge, err := response.JSON200.AsMfaChallenge()
		created.ConnectToken = challenge.ConnectToken
		return created, err
	case response.JSON202 != nil:
		payment, err := response.JSON202.AsPayment()
		created.ID, created.Amount = payment.Id, payment.Amount
		return created, err
	}
	return created, fmt.Errorf("status %s", response.Status())
}

func (c client) AddPayee(accountID, name, address string) (scenario.Created, error) {
	response, err := c.CreatePayeeWithResponse(ctx, accountID, nil, aggregation.CreatePayeeJSONRequestBody{
		Scheme: aggregation.PaymentSchemeNameZelle, Address: address, Name: name, Type: aggregation.PayeeTypePerson,
	})
	if err := answered(err, err == nil && response.JSON200 != nil, response.Status()); err != nil {
		return scenario.Created{}, err
	}
	// A payee or a challenge, both with 200: the fields say which.
	if challenge, err := response.JSON200.AsMfaChallenge(); err == nil && challenge.ConnectToken != "" {
		return scenario.Created{Status: 200, ConnectToken: challenge.ConnectToken}, nil
	}
	payee, err := response.JSON200.AsPayee()
	return scenario.Created{Status: 200, Name: payee.Name}, err
}

func (c client) MissingAccount(accountID string) (int, string, error) {
	response, err := c.GetAccountWithResponse(ctx, accountID, nil)
	if err != nil {
		return 0, "", err
	}
	if response.JSON404 == nil {
		return response.StatusCode(), "", nil
	}
	return response.StatusCode(), response.JSON404.Error.Code, nil
}

func main() {
	baseURL, token := scenario.Sandbox()
	// HTTP Basic with the token as the username, and the version pinned on every request.
	authenticate := func(_ context.Context, request *http.Request) error {
		request.SetBasicAuth(token, "")
		request.Header.Set("Service-Version", version)
		return nil
	}
	generated, err := aggregation.NewClientWithResponses(baseURL, aggregation.WithRequestEditorFn(authenticate))
	if err != nil {
		fmt.Println("client:", err)
		os.Exit(1)
	}
	scenario.Run(client{generated})
}
