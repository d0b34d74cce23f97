// Smoke program of openapi-generator's go client: the shared scenario (smoke/scenario/go) with this client's calls.
package main

import (
	"context"
	"errors"
	"fmt"

	aggregation "aggregation.example/openapi-generator/go"
	"aggregation.example/scenario"
)

type client struct {
	*aggregation.APIClient
	ctx context.Context
}

func (c client) ListAccounts() ([]scenario.Account, error) {
	list, _, err := c.AccountsAPI.ListAccounts(c.ctx).Execute()
	var accounts []scenario.Account
	for _, account := range list {
		accounts = append(accounts, scenario.Account{ID: account.Id, CanPay: account.Links.Payments != nil})
	}
	return accounts, err
}

func (c client) ListTransactions(accountID string, count int, fromID string) ([]scenario.Transaction, error) {
	request := c.TransactionsAPI.ListTransactions(c.ctx, accountID)
	if count > 0 {
		request = request.Count(int32(count))
	}
	if fromID != "" {
		request = request.FromId(fromID)
	}
	page, _, err := request.Execute()
	var transactions []scenario.Transaction
	for _, transaction := range page {
		transactions = append(transactions, scenario.Transaction{ID: transaction.Id, Date: transaction.Date})
	}
	return transactions, err
}

func (c client) Balances(accountID string) (string, string, error) {
	balances, _, err := c.AccountsAPI.GetAccountBalances(c.ctx, accountID).Execute()
	if err != nil {
		return "", "", err
	}
	return balances.Ledger, balances.Available, nil
}

func (c client) Pay(accountID, memo string) (scenario.Created, error) {
	name, kind := "Jane Doe", aggregation.PAYEETYPE_PERSON
	payee := aggregation.PaymentPayeeInput{Scheme: aggregation.PAYMENTSCHEMENAME_ZELLE, Address: "jane.doe@example.com", Name: &name, Type: &kind}
	answer, response, err := c.PaymentsAPI.CreatePayment(c.ctx, accountID).
		CreatePaymentRequest(aggregation.CreatePaymentRequest{Amount: "1.00", Memo: memo, Payee: payee}).
		IdempotencyKey(fmt.Sprintf("smoke-%s-%s", accountID, memo)).Execute()
	if err != nil {
		return scenario.Created{}, err
	}
	// The oneOf's branches are fields; the one the answer matched is set.
	created := scenario.Created{Status: response.StatusCode}
	if answer.MfaChallenge != nil {
		created.ConnectToken = answer.MfaChallenge.ConnectToken
	}
	if answer.Payment != nil {
		created.ID, created.Amount = answer.Payment.Id, answer.Payment.Amount
	}
	return created, nil
}

func (c client) AddPayee(accountID, name, address string) (scenario.Created, error) {
	answer, response, err := c.PaymentsAPI.CreatePayee(c.ctx, accountID).CreatePayeeRequest(aggregation.CreatePayeeRequest{
		Scheme: aggregation.PAYMENTSCHEMENAME_ZELLE, Address: address, Name: name, Type: aggregation.PAYEETYPE_PERSON,
	}).Execute()
	if err != nil {
		return scenario.Created{}, err
	}
	created := scenario.Created{Status: response.StatusCode}
	if answer.MfaChallenge != nil {
		created.ConnectToken = answer.MfaChallenge.ConnectToken
	}
	if answer.Payee != nil {
		created.Name = answer.Payee.Name
	}
	return created, nil
}

func (c client) MissingAccount(accountID string) (int, string, error) {
	_, response, err := c.AccountsAPI.GetAccount(c.ctx, accountID).Execute()
	var apiError *aggregation.GenericOpenAPIError
	if !errors.As(err, &apiError) {
		return 0, "", fmt.Errorf("not a GenericOpenAPIError: %v", err)
	}
	model, ok := apiError.Model().(aggregation.Error)
	if !ok {
		return response.StatusCode, "", fmt.Errorf("model %T", apiError.Model())
	}
	return response.StatusCode, model.Error.Code, nil
}

func main() {
	baseURL, token := scenario.Sandbox()
	configuration := aggregation.NewConfiguration()
	configuration.Servers = aggregation.ServerConfigurations{{URL: baseURL}}
	// HTTP Basic with the token as the username and an empty password.
	ctx := context.WithValue(context.Background(), aggregation.ContextBasicAuth, aggregation.BasicAuth{UserName: token})
	scenario.Run(client{aggregation.NewAPIClient(configuration), ctx})
}
