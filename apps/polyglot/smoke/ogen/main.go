// Smoke program of ogen's client (from the OpenAPI 3.0 variant): the shared scenario (smoke/scenario/go) with this
// client's calls. Each answer is a type of its own, told apart with a type assertion.
package main

import (
	"context"
	"fmt"
	"os"

	aggregation "aggregation.example/ogen"
	"aggregation.example/scenario"
)

// token sends the access token as the HTTP Basic username, with an empty password.
type token string

func (t token) BasicAuth(context.Context, aggregation.OperationName) (aggregation.BasicAuth, error) {
	return aggregation.BasicAuth{Username: string(t)}, nil
}

type client struct{ *aggregation.Client }

var ctx = context.Background()

func (c client) ListAccounts() ([]scenario.Account, error) {
	answer, err := c.Client.ListAccounts(ctx, aggregation.ListAccountsParams{})
	if err != nil {
		return nil, err
	}
	list, ok := answer.(*aggregation.ListAccountsOKHeaders)
	if !ok {
		return nil, fmt.Errorf("answer %T", answer)
	}
	var accounts []scenario.Account
	for _, account := range list.Response {
		accounts = append(accounts, scenario.Account{ID: account.ID, CanPay: account.Links.Payments.Set})
	}
	return accounts, nil
}

func (c client) ListTransactions(accountID string, count int, fromID string) ([]scenario.Transaction, error) {
	params := aggregation.ListTransactionsParams{AccountID: accountID}
	if count > 0 {
		params.Count = aggregation.NewOptInt32(int32(count))
	}
	if fromID != "" {
		params.FromID = aggregation.NewOptString(fromID)
	}
	answer, err := c.Client.ListTransactions(ctx, params)
	if err != nil {
		return nil, err
	}
	page, ok := answer.(*aggregation.ListTransactionsOKHeaders)
	if !ok {
		return nil, fmt.Errorf("answer %T", answer)
	}
	var transactions []scenario.Transaction
	for _, transaction := range page.Response {
		transactions = append(transactions, scenario.Transaction{ID: transaction.ID, Date: transaction.Date.Format("2006-01-02")})
	}
	return transactions, nil
}

func (c client) Balances(accountID string) (string, string, error) {
	answer, err := c.GetAccountBalances(ctx, aggregation.GetAccountBalancesParams{AccountID: accountID})
	if err != nil {
		return "", "", err
	}
	balances, ok := answer.(*aggregation.AccountBalancesHeaders)
	if !ok {
		return "", "", fmt.Errorf("answer %T", answer)
	}
	return string(balances.Response.Ledger), string(balances.Response.Available), nil
}

func (c client) Pay(accountID, memo string) (scenario.Created, error) {
	payee := aggregation.PaymentPayeeInput{
		Scheme:  aggregation.PaymentSchemeNameZelle,
		Address: "jane.doe@example.com",
		Name:    aggregation.NewOptPayeeName("Jane Doe"),
		Type:    aggregation.NewOptPayeeType(aggregation.PayeeTypePerson),
	}
	request := aggregation.CreatePaymentRequest{Amount: "1.00", Memo: memo, Payee: payee}
	params := aggregation.CreatePaymentParams{AccountID: accountID, IdempotencyKey: aggregation.NewOptString("smoke-" + accountID + "-" + memo)}
	answer, err := c.CreatePayment(ctx, &request, params)
	if err != nil {
		return scenario.Created{}, err
	}
	switch answer := answer.(type) {
	// 200 and 202 declare the same schema and headers: a type of its own for each status.
	case *aggregation.CreatePaymentOK:
		if answer.Response.Type == aggregation.MfaChallengePaymentOrMfaChallenge {
			return scenario.Created{Status: 200, ConnectToken: answer.Response.MfaChallenge.ConnectToken}, nil
		}
	case *aggregation.CreatePaymentAccepted:
		if answer.Response.Type == aggregation.PaymentPaymentOrMfaChallenge {
			payment := answer.Response.Payment
			return scenario.Created{Status: 202, ID: payment.ID, Amount: string(payment.Amount)}, nil
		}
	}
	return scenario.Created{}, fmt.Errorf("answer %T %+v", answer, answer)
}

func (c client) AddPayee(accountID, name, address string) (scenario.Created, error) {
	request := aggregation.CreatePayeeRequest{
		Scheme: aggregation.PaymentSchemeNameZelle, Address: aggregation.PayeeAddress(address), Name: aggregation.PayeeName(name), Type: aggregation.PayeeTypePerson,
	}
	answer, err := c.CreatePayee(ctx, &request, aggregation.CreatePayeeParams{AccountID: accountID})
	if err != nil {
		return scenario.Created{}, err
	}
	created, ok := answer.(*aggregation.PayeeOrMfaChallengeHeaders)
	switch {
	case !ok:
		return scenario.Created{}, fmt.Errorf("answer %T %+v", answer, answer)
	case created.Response.Type == aggregation.MfaChallengePayeeOrMfaChallenge:
		return scenario.Created{Status: 200, ConnectToken: created.Response.MfaChallenge.ConnectToken}, nil
	}
	return scenario.Created{Status: 200, Name: string(created.Response.Payee.Name)}, nil
}

func (c client) MissingAccount(accountID string) (int, string, error) {
	answer, err := c.GetAccount(ctx, aggregation.GetAccountParams{AccountID: accountID})
	if err != nil {
		return 0, "", err
	}
	notFound, ok := answer.(*aggregation.NotFoundHeaders)
	if !ok {
		return 0, "", fmt.Errorf("answer %T %+v", answer, answer)
	}
	return 404, notFound.Response.Error.Code, nil
}

func main() {
	baseURL, accessToken := scenario.Sandbox()
	generated, err := aggregation.NewClient(baseURL, token(accessToken))
	if err != nil {
		fmt.Println("client:", err)
		os.Exit(1)
	}
	scenario.Run(client{generated})
}
