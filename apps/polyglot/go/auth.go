package aggregation

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// WithToken authenticates every request with an access token the way the service expects it: HTTP Basic with the
// token as the username and an empty password.
func WithToken(token string) ClientOption {
	return WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
		req.SetBasicAuth(token, "")
		return nil
	})
}

// WithVersion pins the API version (Service-Version) on every request that does not set one itself.
func WithVersion(version string) ClientOption {
	return WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
		if req.Header.Get("Service-Version") == "" {
			req.Header.Set("Service-Version", version)
		}
		return nil
	})
}

// WithMaxRetries sets how many times a call is retried (default 2; 0 sends once). A call's own is
// ContextWithMaxRetries'.
func WithMaxRetries(maxRetries int) ClientOption {
	return withRetryTransport(func(transport *RetryTransport) { transport.MaxRetries = maxRetries })
}

// WithTimeout bounds each attempt's wait for the response's status and headers (default 60 s).
func WithTimeout(timeout time.Duration) ClientOption {
	return withRetryTransport(func(transport *RetryTransport) { transport.Timeout = timeout })
}

func withRetryTransport(set func(*RetryTransport)) ClientOption {
	return func(c *Client) error {
		if httpClient, ok := c.Client.(*http.Client); ok {
			if transport, ok := httpClient.Transport.(*RetryTransport); ok {
				set(transport)
				return nil
			}
		}
		return errors.New("aggregation: retries and timeouts are set on the client of NewAuthenticatedClient; with WithHTTPClient, give it a RetryTransport")
	}
}

// NewAuthenticatedClient is NewClientWithResponses with WithToken, sending through a RetryTransport (retries that
// honour Retry-After, an Idempotency-Key on each payment, a timeout per attempt): the typed client of every operation.
func NewAuthenticatedClient(server, token string, opts ...ClientOption) (*ClientWithResponses, error) {
	defaults := []ClientOption{WithToken(token), WithHTTPClient(&http.Client{Transport: NewRetryTransport(nil)})}
	return NewClientWithResponses(server, append(defaults, opts...)...)
}
