package aggregation

import (
	"context"
	cryptorand "crypto/rand"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
)

// IdempotencyKeyHeader is the header that makes a POST safe to repeat: the service answers a repeated key with the
// first outcome.
const IdempotencyKeyHeader = "Idempotency-Key"

// DefaultTimeout bounds each attempt's wait for the response's status and headers.
const DefaultTimeout = 60 * time.Second

var retryStatuses = map[int]bool{429: true, 502: true, 503: true, 504: true}

// keyedPatterns match the paths of the POSTs that take an Idempotency-Key (idempotentPosts, written from the
// description when the module is assembled), under any base URL's prefix.
var keyedPatterns = func() []*regexp.Regexp {
	patterns := make([]*regexp.Regexp, 0, len(idempotentPosts))
	for _, template := range idempotentPosts {
		quoted := regexp.QuoteMeta(template)
		patterns = append(patterns, regexp.MustCompile(regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(quoted, `[^/]+`)+`$`))
	}
	return patterns
}()

// RetryTransport is an http.RoundTripper that retries reads and deletes, and every POST that carries an
// Idempotency-Key, on 429, 502, 503, 504 and when no response came, up to MaxRetries times: after Retry-After when
// the service sends it (a longer one than MaxRetryAfter is not waited for: the answer is returned as it is), else
// after a jittered exponential backoff. Each retry sends the same request again, headers and body included. A POST
// whose operation declares the Idempotency-Key header in the description (a payment) gets a fresh key when it has
// none. Each attempt waits at most Timeout for the response's status and headers.
type RetryTransport struct {
	// Base sends each attempt. Default: a copy of http.DefaultTransport whose ResponseHeaderTimeout is Timeout.
	Base          http.RoundTripper
	MaxRetries    int
	MaxRetryAfter time.Duration
	Timeout       time.Duration
	// Sleep waits between attempts; it returns early with the context's error. Replaceable for tests.
	Sleep func(ctx context.Context, wait time.Duration) error

	once sync.Once
	base http.RoundTripper
}

// NewRetryTransport is a RetryTransport with the defaults: 2 retries, Retry-After up to 60 s, DefaultTimeout.
func NewRetryTransport(base http.RoundTripper) *RetryTransport {
	return &RetryTransport{Base: base, MaxRetries: 2, MaxRetryAfter: 60 * time.Second, Timeout: DefaultTimeout}
}

type maxRetriesKey struct{}

// ContextWithMaxRetries sets the retries of the calls made with ctx, over the client's: ContextWithMaxRetries(ctx, 0)
// sends once. A call's own deadline is context.WithTimeout's.
func ContextWithMaxRetries(ctx context.Context, maxRetries int) context.Context {
	return context.WithValue(ctx, maxRetriesKey{}, maxRetries)
}

// RoundTrip sends the request, retried as the type says.
func (t *RetryTransport) RoundTrip(request *http.Request) (*http.Response, error) {
	t.once.Do(func() {
		t.base = t.Base
		if t.base == nil {
			transport := http.DefaultTransport.(*http.Transport).Clone()
			transport.ResponseHeaderTimeout = t.Timeout
			t.base = transport
		}
	})
	ctx := request.Context()
	if takesIdempotencyKey(request) && request.Header.Get(IdempotencyKeyHeader) == "" {
		// A RoundTripper must not change the request it is given: the key goes on a copy.
		request = request.Clone(ctx)
		request.Header.Set(IdempotencyKeyHeader, newIdempotencyKey())
	}
	maxRetries := t.MaxRetries
	if given, ok := ctx.Value(maxRetriesKey{}).(int); ok {
		maxRetries = given
	}
	if !isRetryable(request) || (request.Body != nil && request.Body != http.NoBody && request.GetBody == nil) {
		maxRetries = 0
	}
	for retry := 1; ; retry++ {
		attempt, err := attemptOf(request, retry)
		if err != nil {
			return nil, err
		}
		response, err := t.base.RoundTrip(attempt)
		last := retry > maxRetries
		if err != nil {
			// The caller's own cancel or deadline is final.
			if ctx.Err() != nil {
				return nil, err
			}
			if last {
				return nil, connectionError(request, err)
			}
			if err := t.sleep(ctx, backoff(retry)); err != nil {
				return nil, err
			}
			continue
		}
		if last || !retryStatuses[response.StatusCode] {
			return response, nil
		}
		wait := backoff(retry)
		if asked := response.Header.Get("Retry-After"); asked != "" {
			wait = parseRetryAfter(asked, time.Now())
			if wait > t.MaxRetryAfter {
				return response, nil
			}
		}
		_, _ = io.Copy(io.Discard, response.Body)
		_ = response.Body.Close()
		if err := t.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

func (t *RetryTransport) sleep(ctx context.Context, wait time.Duration) error {
	if t.Sleep != nil {
		return t.Sleep(ctx, wait)
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// attemptOf is the request of one attempt: the first as it is, each retry a copy with its body read afresh.
func attemptOf(request *http.Request, retry int) (*http.Request, error) {
	if retry == 1 || request.GetBody == nil {
		return request, nil
	}
	body, err := request.GetBody()
	if err != nil {
		return nil, err
	}
	attempt := request.Clone(request.Context())
	attempt.Body = body
	return attempt, nil
}

func takesIdempotencyKey(request *http.Request) bool {
	if request.Method != http.MethodPost {
		return false
	}
	for _, pattern := range keyedPatterns {
		if pattern.MatchString(request.URL.Path) {
			return true
		}
	}
	return false
}

// isRetryable: reads and deletes, and a POST with an Idempotency-Key (the service replays it).
func isRetryable(request *http.Request) bool {
	switch request.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodDelete, http.MethodPut:
		return true
	}
	return request.Header.Get(IdempotencyKeyHeader) != ""
}

// backoff is half the capped exponential step (500 ms doubling, at most 8 s), plus a random part of the other half.
func backoff(retry int) time.Duration {
	step := min(8*time.Second, 500*time.Millisecond<<(retry-1))
	return step/2 + time.Duration(rand.Int64N(int64(step/2)+1))
}

func newIdempotencyKey() string {
	var b [16]byte
	_, _ = cryptoRead(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

var cryptoRead = cryptorand.Read

func connectionError(request *http.Request, err error) error {
	failed := &ConnectionError{Method: request.Method, URL: request.URL.String(), Err: err}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() || errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "timeout awaiting response headers") {
		return &ConnectionTimeoutError{failed}
	}
	return failed
}
