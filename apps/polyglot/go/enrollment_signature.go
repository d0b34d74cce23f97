package aggregation

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"regexp"
	"strings"
)

// EnrollmentSignatureAlgorithm is the algorithm of the enrollment widget's signatures.
const EnrollmentSignatureAlgorithm = "Ed25519"

// EnrollmentSignature is one signature of the enrollment widget's result.
type EnrollmentSignature struct {
	KeyId     string `json:"key_id,omitempty"`
	Algorithm string `json:"algorithm,omitempty"`
	Signature string `json:"signature"`
}

// SignedEnrollment is what the widget's result signs, with its signatures. AccessToken is empty after a reconnect
// (the enrollment keeps its own token); Nonce is the one the backend gave the widget (empty when none).
type SignedEnrollment struct {
	Nonce        string
	AccessToken  string
	UserId       string
	EnrollmentId string
	// Environment defaults to "sandbox".
	Environment string
	Signatures  []EnrollmentSignature
}

// SigningKey is the application's public key, as GET /sandbox/application gives it (signing_key). Id may be empty:
// then every signature is tried.
type SigningKey struct {
	Id        string `json:"id"`
	PublicKey string `json:"public_key"`
}

var base64URL = regexp.MustCompile(`^[A-Za-z0-9_-]*={0,2}$`)

func fromBase64URL(text string) ([]byte, bool) {
	if !base64URL.MatchString(text) {
		return nil, false
	}
	decoded, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(text, "="))
	return decoded, err == nil
}

// EnrollmentSignatureMessage is the signed message: <nonce>.<access_token>.<user_id>.<enrollment_id>.<environment>.
func EnrollmentSignatureMessage(enrollment SignedEnrollment) string {
	environment := enrollment.Environment
	if environment == "" {
		environment = "sandbox"
	}
	return strings.Join([]string{enrollment.Nonce, enrollment.AccessToken, enrollment.UserId, enrollment.EnrollmentId, environment}, ".")
}

// VerifyEnrollmentSignature reports whether one of the result's Ed25519 signatures is the application's key's
// signature of the nonce, access token, user and enrollment: false for a forged, altered or replayed result (another
// nonce), or one signed by another key. An error only for a public key that is not 32 bytes of base64url.
func VerifyEnrollmentSignature(key SigningKey, enrollment SignedEnrollment) (bool, error) {
	raw, ok := fromBase64URL(key.PublicKey)
	if !ok || len(raw) != ed25519.PublicKeySize {
		return false, errors.New("the public key is not an Ed25519 key: expected 32 bytes, base64url (signing_key.public_key)")
	}
	message := []byte(EnrollmentSignatureMessage(enrollment))
	verified := false
	// Every candidate is checked, so the time taken does not tell which one matched.
	for _, candidate := range enrollment.Signatures {
		if candidate.Algorithm != "" && candidate.Algorithm != EnrollmentSignatureAlgorithm {
			continue
		}
		if key.Id != "" && candidate.KeyId != "" && candidate.KeyId != key.Id {
			continue
		}
		signature, ok := fromBase64URL(candidate.Signature)
		if !ok || len(signature) != ed25519.SignatureSize {
			continue
		}
		if ed25519.Verify(ed25519.PublicKey(raw), message, signature) {
			verified = true
		}
	}
	return verified, nil
}
