package aggregation

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader is the header that carries a webhook's signature.
const SignatureHeader = "Service-Signature"

// DefaultTolerance is how far a webhook's timestamp may be from now.
const DefaultTolerance = 180 * time.Second

// Reasons a webhook is refused, as WebhookVerificationError.Reason.
const (
	ReasonMissingHeader     = "missing_header"
	ReasonMalformedHeader   = "malformed_header"
	ReasonNoSecret          = "no_secret"
	ReasonSignatureMismatch = "signature_mismatch"
	ReasonTimestampTooOld   = "timestamp_too_old"
	ReasonTimestampInFuture = "timestamp_in_future"
	ReasonInvalidPayload    = "invalid_payload"
)

// WebhookVerificationError says why a webhook was refused.
type WebhookVerificationError struct {
	Reason  string
	Message string
}

func (e *WebhookVerificationError) Error() string { return e.Reason + ": " + e.Message }

func refuse(reason, format string, args ...any) error {
	return &WebhookVerificationError{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// VerifyOptions changes VerifyWebhook's defaults.
type VerifyOptions struct {
	// Tolerance replaces DefaultTolerance when positive.
	Tolerance time.Duration
	// Now replaces the current time when not zero.
	Now time.Time
}

var (
	hexSignature = regexp.MustCompile(`^[0-9a-f]{64}$`)
	digits       = regexp.MustCompile(`^[0-9]+$`)
)

// ParseSignatureHeader reads `t=<unix seconds>,v1=<hex>[,v1=<hex>]`; items of other schemes are ignored.
func ParseSignatureHeader(header string) (int64, []string, error) {
	var timestamp int64
	seen := false
	var signatures []string
	for _, item := range strings.Split(header, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return 0, nil, refuse(ReasonMalformedHeader, "item without '=': %q", item)
		}
		switch key {
		case "t":
			if seen || !digits.MatchString(value) {
				return 0, nil, refuse(ReasonMalformedHeader, "the header needs exactly one integer t")
			}
			parsed, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				return 0, nil, refuse(ReasonMalformedHeader, "t is out of range")
			}
			timestamp, seen = parsed, true
		case "v1":
			if !hexSignature.MatchString(value) {
				return 0, nil, refuse(ReasonMalformedHeader, "a v1 signature is 64 lowercase hex digits")
			}
			signatures = append(signatures, value)
		}
	}
	if !seen || len(signatures) == 0 {
		return 0, nil, refuse(ReasonMalformedHeader, "the header needs t and at least one v1")
	}
	return timestamp, signatures, nil
}

// Sign is the v1 signature of a body with one secret: hex HMAC-SHA256 of "<t>.<body>".
func Sign(body []byte, secret string, timestamp int64) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// VerifyWebhook returns the event (the generated WebhookEvent envelope) once a v1 signature of the header matches the raw body with one of the secrets
// (two are live during a rotation) and its timestamp is within the tolerance of now; otherwise a
// *WebhookVerificationError with the reason.
func VerifyWebhook(body []byte, header string, secrets []string, options *VerifyOptions) (*WebhookEvent, error) {
	if header == "" {
		return nil, refuse(ReasonMissingHeader, "no %s header", SignatureHeader)
	}
	var keys []string
	for _, secret := range secrets {
		if secret != "" {
			keys = append(keys, secret)
		}
	}
	if len(keys) == 0 {
		return nil, refuse(ReasonNoSecret, "no signing secret to verify with")
	}
	timestamp, signatures, err := ParseSignatureHeader(header)
	if err != nil {
		return nil, err
	}
	// Every pair is compared, in constant time, so the timing tells nothing about which one matched.
	matched := false
	for _, key := range keys {
		expected := []byte(Sign(body, key, timestamp))
		for _, signature := range signatures {
			if hmac.Equal(expected, []byte(signature)) {
				matched = true
			}
		}
	}
	if !matched {
		return nil, refuse(ReasonSignatureMismatch, "no signature matches the body with these secrets")
	}
	tolerance, now := DefaultTolerance, time.Now()
	if options != nil && options.Tolerance > 0 {
		tolerance = options.Tolerance
	}
	if options != nil && !options.Now.IsZero() {
		now = options.Now
	}
	age := now.Sub(time.Unix(timestamp, 0))
	if age > tolerance {
		return nil, refuse(ReasonTimestampTooOld, "signed %s ago, more than %s", age, tolerance)
	}
	if age < -tolerance {
		return nil, refuse(ReasonTimestampInFuture, "signed %s ahead of this clock", -age)
	}
	var event WebhookEvent
	if err := json.Unmarshal(body, &event); err != nil {
		return nil, refuse(ReasonInvalidPayload, "the body is not an event envelope: %v", err)
	}
	if event.Id == "" || event.Type == "" || event.Timestamp.IsZero() || event.Payload == nil {
		return nil, refuse(ReasonInvalidPayload, "the body is not an event envelope")
	}
	return &event, nil
}
