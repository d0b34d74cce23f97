package aggregation

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// APIError is an answer outside 2xx, with the contract's {"error": {"code", "message", "params", "request_id"}} read
// out. Each status has a type of its own that wraps it (*NotFoundError, *RateLimitError, ...): match one with
// errors.As, or any of them with errors.As(err, &apiErr) where apiErr is an *APIError.
type APIError struct {
	StatusCode int
	// Code is dot-separated and may grow trailing tokens (account.closed.user_request): compare with HasCode.
	Code    string
	Message string
	// Params holds the messages of each invalid field (422).
	Params map[string][]string
	// RequestID is the server's id of the request: quote it when asking about a call.
	RequestID string
	// RetryAfter is the wait the service asked for (429, 503, 504), 0 when it asked none.
	RetryAfter time.Duration
	Header     http.Header
	Body       []byte
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.StatusCode, e.Code, e.Message)
}

// HasCode reports whether the code begins with every token of prefix (account.closedx does not begin with
// account.closed).
func (e *APIError) HasCode(prefix string) bool {
	have, want := strings.Split(e.Code, "."), strings.Split(prefix, ".")
	if e.Code == "" || len(want) > len(have) {
		return false
	}
	for i, token := range want {
		if have[i] != token {
			return false
		}
	}
	return true
}

// One type per status; each unwraps to its *APIError.
type (
	BadRequestError          struct{ *APIError } // 400
	AuthenticationError      struct{ *APIError } // 401
	PermissionDeniedError    struct{ *APIError } // 403
	NotFoundError            struct{ *APIError } // 404
	GoneError                struct{ *APIError } // 410
	UnprocessableEntityError struct{ *APIError } // 422
	RateLimitError           struct{ *APIError } // 429
	BadGatewayError          struct{ *APIError } // 502
	ServiceUnavailableError  struct{ *APIError } // 503
	GatewayTimeoutError      struct{ *APIError } // 504
	InternalServerError      struct{ *APIError } // any other 5xx
)

func (e *BadRequestError) Unwrap() error          { return e.APIError }
func (e *AuthenticationError) Unwrap() error      { return e.APIError }
func (e *PermissionDeniedError) Unwrap() error    { return e.APIError }
func (e *NotFoundError) Unwrap() error            { return e.APIError }
func (e *GoneError) Unwrap() error                { return e.APIError }
func (e *UnprocessableEntityError) Unwrap() error { return e.APIError }
func (e *RateLimitError) Unwrap() error           { return e.APIError }
func (e *BadGatewayError) Unwrap() error          { return e.APIError }
func (e *ServiceUnavailableError) Unwrap() error  { return e.APIError }
func (e *GatewayTimeoutError) Unwrap() error      { return e.APIError }
func (e *InternalServerError) Unwrap() error      { return e.APIError }

// ConnectionError is a request that got no response, after its retries: refused, reset, a name that does not
// resolve, a TLS failure. A timeout is a *ConnectionTimeoutError, which unwraps to it.
type ConnectionError struct {
	Method string
	URL    string
	Err    error
}

func (e *ConnectionError) Error() string {
	return fmt.Sprintf("request failed, no response: %s %s: %v", e.Method, e.URL, e.Err)
}

func (e *ConnectionError) Unwrap() error { return e.Err }

// ConnectionTimeoutError is a request that had no response within its timeout.
type ConnectionTimeoutError struct{ *ConnectionError }

func (e *ConnectionTimeoutError) Error() string {
	return fmt.Sprintf("no response in time: %s %s: %v", e.Method, e.URL, e.Err)
}

func (e *ConnectionTimeoutError) Unwrap() error { return e.ConnectionError }

// Timeout is true, as net.Error says of a timeout.
func (e *ConnectionTimeoutError) Timeout() bool { return true }

// ErrorFromResponse builds the error of an answer outside 2xx, as the type of its status (an *APIError for a status
// without a type of its own).
func ErrorFromResponse(status int, header http.Header, body []byte) error {
	apiErr := &APIError{StatusCode: status, Code: fmt.Sprintf("http_%d", status), Message: http.StatusText(status), Header: header, Body: body}
	var parsed struct {
		Error struct {
			Code      string              `json:"code"`
			Message   string              `json:"message"`
			Params    map[string][]string `json:"params"`
			RequestID string              `json:"request_id"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &parsed) == nil {
		if parsed.Error.Code != "" {
			apiErr.Code = parsed.Error.Code
		}
		if parsed.Error.Message != "" {
			apiErr.Message = parsed.Error.Message
		}
		apiErr.Params = parsed.Error.Params
		apiErr.RequestID = parsed.Error.RequestID
	}
	if apiErr.RequestID == "" && header != nil {
		apiErr.RequestID = header.Get("Request-Id")
	}
	if header != nil {
		apiErr.RetryAfter = parseRetryAfter(header.Get("Retry-After"), time.Now())
	}
	switch {
	case status == 400:
		return &BadRequestError{apiErr}
	case status == 401:
		return &AuthenticationError{apiErr}
	case status == 403:
		return &PermissionDeniedError{apiErr}
	case status == 404:
		return &NotFoundError{apiErr}
	case status == 410:
		return &GoneError{apiErr}
	case status == 422:
		return &UnprocessableEntityError{apiErr}
	case status == 429:
		return &RateLimitError{apiErr}
	case status == 502:
		return &BadGatewayError{apiErr}
	case status == 503:
		return &ServiceUnavailableError{apiErr}
	case status == 504:
		return &GatewayTimeoutError{apiErr}
	case status >= 500 && status <= 599:
		return &InternalServerError{apiErr}
	}
	return apiErr
}

// parseRetryAfter reads delta-seconds or an HTTP date; 0 when absent or unreadable.
func parseRetryAfter(value string, now time.Time) time.Duration {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0
	}
	if seconds, err := strconv.ParseFloat(value, 64); err == nil && seconds >= 0 {
		return time.Duration(seconds * float64(time.Second))
	}
	if date, err := http.ParseTime(value); err == nil && date.After(now) {
		return date.Sub(now)
	}
	return 0
}

// A response of the generated client (every ...WithResponse method returns one).
type generatedResponse interface {
	StatusCode() int
	GetBody() []byte
}

// Check takes what a ...WithResponse method returns and gives it back, or the error of an answer outside 2xx as the
// type of its status:
//
//	accounts, err := aggregation.Check(client.ListAccountsWithResponse(ctx, nil))
//	var notFound *aggregation.NotFoundError
//	if errors.As(err, &notFound) { ... }
func Check[R generatedResponse](response R, err error) (R, error) {
	if err != nil {
		return response, err
	}
	if status := response.StatusCode(); status < 200 || status > 299 {
		return response, ErrorFromResponse(status, headerOf(response), response.GetBody())
	}
	return response, nil
}

// headerOf reads the HTTPResponse field every generated response has (the generator gives it no method).
func headerOf(response any) http.Header {
	value := reflect.ValueOf(response)
	if value.Kind() == reflect.Pointer {
		if value.IsNil() {
			return nil
		}
		value = value.Elem()
	}
	if value.Kind() != reflect.Struct {
		return nil
	}
	field := value.FieldByName("HTTPResponse")
	if !field.IsValid() {
		return nil
	}
	if httpResponse, ok := field.Interface().(*http.Response); ok && httpResponse != nil {
		return httpResponse.Header
	}
	return nil
}
