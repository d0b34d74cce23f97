package aggregation

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"
)

// answering is a server that answers each request with the next status of answers, and records what it got.
type answering struct {
	mu       sync.Mutex
	answers  []int
	headers  map[int]http.Header
	requests []*http.Request
	bodies   []string
}

func (a *answering) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	index := len(a.requests)
	a.requests = append(a.requests, r)
	a.bodies = append(a.bodies, string(body))
	status := a.answers[min(index, len(a.answers)-1)]
	for name, values := range a.headers[index] {
		w.Header()[name] = values
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_test")
	w.WriteHeader(status)
	if status >= 400 {
		_, _ = w.Write([]byte(`{"error":{"code":"some_code","message":"m","request_id":"req_body"}}`))
	} else {
		_, _ = w.Write([]byte(`[]`))
	}
}

func serve(t *testing.T, a *answering) (string, *RetryTransport, *[]time.Duration) {
	t.Helper()
	server := httptest.NewServer(a)
	t.Cleanup(server.Close)
	waits := &[]time.Duration{}
	transport := NewRetryTransport(nil)
	transport.Sleep = func(_ context.Context, wait time.Duration) error {
		*waits = append(*waits, wait)
		return nil
	}
	return server.URL, transport, waits
}

func TestOneErrorTypePerStatus(t *testing.T) {
	cases := map[int]func(error) bool{
		400: func(err error) bool { var e *BadRequestError; return errors.As(err, &e) },
		401: func(err error) bool { var e *AuthenticationError; return errors.As(err, &e) },
		403: func(err error) bool { var e *PermissionDeniedError; return errors.As(err, &e) },
		404: func(err error) bool { var e *NotFoundError; return errors.As(err, &e) },
		410: func(err error) bool { var e *GoneError; return errors.As(err, &e) },
		422: func(err error) bool { var e *UnprocessableEntityError; return errors.As(err, &e) },
		429: func(err error) bool { var e *RateLimitError; return errors.As(err, &e) },
		502: func(err error) bool { var e *BadGatewayError; return errors.As(err, &e) },
		503: func(err error) bool { var e *ServiceUnavailableError; return errors.As(err, &e) },
		504: func(err error) bool { var e *GatewayTimeoutError; return errors.As(err, &e) },
		500: func(err error) bool { var e *InternalServerError; return errors.As(err, &e) },
		501: func(err error) bool { var e *InternalServerError; return errors.As(err, &e) },
	}
	body := []byte(`{"error":{"code":"account.closed.user_request","message":"closed","request_id":"req_1"}}`)
	for status, is := range cases {
		err := ErrorFromResponse(status, http.Header{"Retry-After": {"2"}}, body)
		if !is(err) {
			t.Errorf("%d is %T", status, err)
		}
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != status || apiErr.RequestID != "req_1" || apiErr.RetryAfter != 2*time.Second {
			t.Errorf("%d: %+v", status, apiErr)
		}
		if !apiErr.HasCode("account.closed") || apiErr.HasCode("account.closedx") {
			t.Errorf("%d: codes compare token by token", status)
		}
		for other, otherIs := range cases {
			sameType := other >= 500 && other <= 501 && status >= 500 && status <= 501
			if other != status && !sameType && otherIs(err) {
				t.Errorf("%d is also the type of %d", status, other)
			}
		}
	}
	if _, ok := ErrorFromResponse(409, nil, nil).(*APIError); !ok {
		t.Error("409 is a plain *APIError")
	}
}

func TestReadsAreRetriedAfterRetryAfter(t *testing.T) {
	a := &answering{answers: []int{429, 503, 200}, headers: map[int]http.Header{0: {"Retry-After": {"3"}}}}
	url, transport, waits := serve(t, a)
	response, err := (&http.Client{Transport: transport}).Get(url + "/accounts")
	if err != nil || response.StatusCode != 200 {
		t.Fatalf("%v %v", response, err)
	}
	if len(a.requests) != 3 || (*waits)[0] != 3*time.Second || (*waits)[1] < 250*time.Millisecond || (*waits)[1] > time.Second {
		t.Fatalf("%d requests, waits %v", len(a.requests), *waits)
	}
}

func TestRetriesAreBoundedPerClientAndPerCall(t *testing.T) {
	a := &answering{answers: []int{503}}
	url, transport, _ := serve(t, a)
	transport.MaxRetries = 3
	client := &http.Client{Transport: transport}
	response, _ := client.Get(url + "/accounts")
	if response.StatusCode != 503 || len(a.requests) != 4 {
		t.Fatalf("%d after %d requests", response.StatusCode, len(a.requests))
	}
	request, _ := http.NewRequestWithContext(ContextWithMaxRetries(context.Background(), 0), http.MethodGet, url+"/accounts", nil)
	if _, err := client.Do(request); err != nil || len(a.requests) != 5 {
		t.Fatalf("%v after %d requests", err, len(a.requests))
	}
}

func TestAPaymentGetsAKeyAndKeepsItAcrossRetries(t *testing.T) {
	a := &answering{answers: []int{502, 202}}
	url, transport, _ := serve(t, a)
	response, err := (&http.Client{Transport: transport}).Post(url+"/accounts/acc_1/payments", "application/json", bytes.NewReader([]byte(`{"amount":"1.00"}`)))
	if err != nil || response.StatusCode != 202 || len(a.requests) != 2 {
		t.Fatalf("%v %v after %d", response, err, len(a.requests))
	}
	first, second := a.requests[0].Header.Get(IdempotencyKeyHeader), a.requests[1].Header.Get(IdempotencyKeyHeader)
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(first) || second != first {
		t.Fatalf("keys %q %q", first, second)
	}
	if a.bodies[0] != `{"amount":"1.00"}` || a.bodies[1] != a.bodies[0] {
		t.Fatalf("bodies %q", a.bodies)
	}
}

func TestPayeeCreationTakesNoKeyAndIsNotRetried(t *testing.T) {
	a := &answering{answers: []int{503, 200}}
	url, transport, _ := serve(t, a)
	response, _ := (&http.Client{Transport: transport}).Post(url+"/accounts/acc_1/payees", "application/json", bytes.NewReader([]byte(`{}`)))
	if response.StatusCode != 503 || len(a.requests) != 1 || a.requests[0].Header.Get(IdempotencyKeyHeader) != "" {
		t.Fatalf("%d after %d requests", response.StatusCode, len(a.requests))
	}
}

func TestNoAnswerInTimeIsAConnectionTimeoutError(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	go func() {
		for {
			connection, err := listener.Accept()
			if err != nil {
				return
			}
			defer connection.Close()
		}
	}()
	client, err := NewAuthenticatedClient("http://"+listener.Addr().String(), "test_token_x", WithTimeout(200*time.Millisecond), WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Check(client.ListAccountsWithResponse(context.Background(), nil))
	var timedOut *ConnectionTimeoutError
	var failed *ConnectionError
	if !errors.As(err, &timedOut) || !errors.As(err, &failed) {
		t.Fatalf("%T %v", err, err)
	}
}
