package aggregation

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"testing"
)

// The vectors the server's signing code makes (testdata/enrollment-signatures.json, written when the module is
// assembled), shared with the TypeScript and Python clients.
type enrollmentVectors struct {
	Cases []struct {
		Name         string                `json:"name"`
		PublicKey    string                `json:"public_key"`
		KeyId        string                `json:"key_id"`
		Nonce        *string               `json:"nonce"`
		AccessToken  *string               `json:"access_token"`
		UserId       string                `json:"user_id"`
		EnrollmentId string                `json:"enrollment_id"`
		Environment  string                `json:"environment"`
		Signatures   []EnrollmentSignature `json:"signatures"`
		Valid        bool                  `json:"valid"`
	} `json:"cases"`
}

func orEmpty(text *string) string {
	if text == nil {
		return ""
	}
	return *text
}

func TestVerifyEnrollmentSignatureOnTheSharedVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/enrollment-signatures.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors enrollmentVectors
	if err := json.Unmarshal(raw, &vectors); err != nil {
		t.Fatal(err)
	}
	outcomes := map[bool]int{}
	for _, c := range vectors.Cases {
		outcomes[c.Valid]++
		t.Run(c.Name, func(t *testing.T) {
			signed := SignedEnrollment{Nonce: orEmpty(c.Nonce), AccessToken: orEmpty(c.AccessToken), UserId: c.UserId, EnrollmentId: c.EnrollmentId, Environment: c.Environment, Signatures: c.Signatures}
			for _, key := range []SigningKey{{PublicKey: c.PublicKey}, {Id: c.KeyId, PublicKey: c.PublicKey}} {
				verified, err := VerifyEnrollmentSignature(key, signed)
				if err != nil || verified != c.Valid {
					t.Fatalf("key %q: %v, %v; want %v", key.Id, verified, err, c.Valid)
				}
			}
		})
	}
	if outcomes[true] == 0 || outcomes[false] == 0 {
		t.Fatalf("the vectors hold %v", outcomes)
	}
}

func TestVerifyEnrollmentSignatureRefusesAKeyThatIsNot32Bytes(t *testing.T) {
	for _, key := range []string{"", "not base64!", "GbFoOCUntuSxjA06BUGh"} {
		if _, err := VerifyEnrollmentSignature(SigningKey{PublicKey: key}, SignedEnrollment{}); err == nil {
			t.Fatalf("%q: no error", key)
		}
	}
}

func post(t *testing.T, url string, body any) map[string]any {
	t.Helper()
	encoded, _ := json.Marshal(body)
	response, err := http.Post(url, "application/json", bytes.NewReader(encoded))
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	var decoded map[string]any
	if err := json.NewDecoder(response.Body).Decode(&decoded); err != nil {
		t.Fatal(err)
	}
	return decoded
}

func TestSandboxEnrollmentThroughTheWidgetVerifiesForItsNonceOnly(t *testing.T) {
	url := sandbox(t)
	session := post(t, url+"/sandbox/connect/sessions", map[string]string{"application_id": "app_default", "nonce": "go-nonce"})
	done := post(t, url+"/sandbox/connect/sessions/"+session["id"].(string)+"/credentials", map[string]string{
		"application_id": "app_default", "institution_id": "chase", "username": "username", "password": "password",
	})
	var result struct {
		AccessToken string                `json:"access_token"`
		User        struct{ Id string }   `json:"user"`
		Enrollment  struct{ Id string }   `json:"enrollment"`
		Signatures  []EnrollmentSignature `json:"signatures"`
	}
	encoded, _ := json.Marshal(done["result"])
	if err := json.Unmarshal(encoded, &result); err != nil {
		t.Fatal(err)
	}
	request, _ := http.NewRequest(http.MethodGet, url+"/sandbox/application", nil)
	request.SetBasicAuth(result.AccessToken, "")
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	var application struct {
		SigningKey SigningKey `json:"signing_key"`
	}
	if err := json.NewDecoder(response.Body).Decode(&application); err != nil {
		t.Fatal(err)
	}
	signed := SignedEnrollment{Nonce: "go-nonce", AccessToken: result.AccessToken, UserId: result.User.Id, EnrollmentId: result.Enrollment.Id, Signatures: result.Signatures}
	if verified, err := VerifyEnrollmentSignature(application.SigningKey, signed); !verified || err != nil {
		t.Fatalf("refused: %v", err)
	}
	signed.Nonce = "another-run"
	if verified, _ := VerifyEnrollmentSignature(application.SigningKey, signed); verified {
		t.Fatal("accepted another run's nonce")
	}
}
