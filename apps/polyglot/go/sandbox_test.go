package aggregation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"testing"
)

// The module against the sandbox server at AGGREGATION_BASE_URL (the test of apps/polyglot starts one and sets it;
// without it these are skipped): the users that answer 429 and 504, a payment retried with its key, a 404.

type enrollment struct {
	AccessToken string `json:"access_token"`
	Accounts    []struct {
		Id      string `json:"id"`
		Subtype string `json:"subtype"`
	} `json:"accounts"`
}

func sandbox(t *testing.T) string {
	t.Helper()
	url := os.Getenv("AGGREGATION_BASE_URL")
	if url == "" {
		t.Skip("AGGREGATION_BASE_URL names no sandbox server")
	}
	return url
}

func enroll(t *testing.T, url, username string) enrollment {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"username": username, "password": "password"})
	response, err := http.Post(url+"/sandbox/enrollments", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	var enrolled enrollment
	if err := json.NewDecoder(response.Body).Decode(&enrolled); err != nil {
		t.Fatal(err)
	}
	return enrolled
}

func (e enrollment) checking() string {
	for _, account := range e.Accounts {
		if account.Subtype == "checking" {
			return account.Id
		}
	}
	return ""
}

func TestSandboxRateLimitSentOnceThenRetriedThrough(t *testing.T) {
	url := sandbox(t)
	client, _ := NewAuthenticatedClient(url, enroll(t, url, "rate_limited.2").AccessToken)
	_, err := Check(client.ListAccountsWithResponse(ContextWithMaxRetries(context.Background(), 0), nil))
	var limited *RateLimitError
	if !errors.As(err, &limited) || limited.Code != "rate_limited" || limited.RetryAfter.Seconds() != 1 {
		t.Fatalf("%T %v", err, err)
	}
	accounts, err := Check(client.ListAccountsWithResponse(context.Background(), nil))
	if err != nil || len(*accounts.JSON200) != 3 {
		t.Fatalf("%v", err)
	}
}

func TestSandboxFirstTransactionsGatewayTimeout(t *testing.T) {
	url := sandbox(t)
	once := enroll(t, url, "timeout.first_transactions")
	client, _ := NewAuthenticatedClient(url, once.AccessToken, WithMaxRetries(0))
	_, err := Check(client.ListTransactionsWithResponse(context.Background(), once.checking(), nil))
	var gatewayTimeout *GatewayTimeoutError
	if !errors.As(err, &gatewayTimeout) {
		t.Fatalf("%T %v", err, err)
	}
	retried := enroll(t, url, "timeout.first_transactions")
	client, _ = NewAuthenticatedClient(url, retried.AccessToken)
	if _, err := Check(client.ListTransactionsWithResponse(context.Background(), retried.checking(), nil)); err != nil {
		t.Fatal(err)
	}
}

func TestSandboxPaymentRetriedWithItsKeyIsMadeOnce(t *testing.T) {
	url := sandbox(t)
	payer := enroll(t, url, "rate_limited.1")
	client, _ := NewAuthenticatedClient(url, payer.AccessToken)
	body := []byte(`{"amount":"1.00","memo":"Go retry","payee":{"scheme":"zelle","address":"go@example.com","name":"Go","type":"person"}}`)
	made, err := Check(client.CreatePaymentWithBodyWithResponse(context.Background(), payer.checking(), nil, "application/json", bytes.NewReader(body)))
	if err != nil || made.StatusCode() != 202 {
		t.Fatalf("%v %s", err, made.Body)
	}
	payments, err := Check(client.ListPaymentsWithResponse(context.Background(), payer.checking(), nil))
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, payment := range *payments.JSON200 {
		if payment.Memo == "Go retry" {
			count++
		}
	}
	if count != 1 {
		t.Fatalf("%d payments made", count)
	}
}

func TestSandboxNotFoundAndRefused(t *testing.T) {
	url := sandbox(t)
	client, _ := NewAuthenticatedClient(url, enroll(t, url, "username").AccessToken)
	_, err := Check(client.GetAccountWithResponse(context.Background(), "acc_missing", nil))
	var notFound *NotFoundError
	if !errors.As(err, &notFound) || notFound.RequestID == "" {
		t.Fatalf("%T %v", err, err)
	}
	listener, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := "http://" + listener.Addr().String()
	listener.Close()
	client, _ = NewAuthenticatedClient(closed, "test_token_x", WithMaxRetries(0))
	_, err = Check(client.ListAccountsWithResponse(context.Background(), nil))
	var failed *ConnectionError
	if !errors.As(err, &failed) {
		t.Fatalf("%T %v", err, err)
	}
}
