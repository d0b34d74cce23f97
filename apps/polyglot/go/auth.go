package aggregation

import (
	"context"
	"net/http"
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

// NewAuthenticatedClient is NewClientWithResponses with WithToken: the typed client of every operation.
func NewAuthenticatedClient(server, token string, opts ...ClientOption) (*ClientWithResponses, error) {
	return NewClientWithResponses(server, append([]ClientOption{WithToken(token)}, opts...)...)
}
