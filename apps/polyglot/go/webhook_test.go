package aggregation

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"
)

// The vectors every language's client is tested on (openapi/test/fixtures/webhook-signatures.json of the
// repository, copied here when the module is assembled).
type vectorFile struct {
	Body       string            `json:"body"`
	Timestamp  int64             `json:"timestamp"`
	Secrets    map[string]string `json:"secrets"`
	Signatures map[string]string `json:"signatures"`
	Cases      []struct {
		Name    string   `json:"name"`
		Body    *string  `json:"body"`
		Header  *string  `json:"header"`
		Secrets []string `json:"secrets"`
		Now     int64    `json:"now"`
		Expect  string   `json:"expect"`
	} `json:"cases"`
}

func loadVectors(t *testing.T) vectorFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/webhook-signatures.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors vectorFile
	if err := json.Unmarshal(raw, &vectors); err != nil {
		t.Fatal(err)
	}
	if len(vectors.Cases) == 0 {
		t.Fatal("no cases in the vectors file")
	}
	return vectors
}

func TestVerifyWebhookOnTheSharedVectors(t *testing.T) {
	vectors := loadVectors(t)
	for _, c := range vectors.Cases {
		t.Run(c.Name, func(t *testing.T) {
			body, header := vectors.Body, ""
			if c.Body != nil {
				body = *c.Body
			}
			if c.Header != nil {
				header = *c.Header
			}
			event, err := VerifyWebhook([]byte(body), header, c.Secrets, &VerifyOptions{Now: time.Unix(c.Now, 0)})
			if c.Expect == "valid" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if event.Id != "evt_1a2b3c" {
					t.Fatalf("event id %q", event.Id)
				}
				return
			}
			var refused *WebhookVerificationError
			if !errors.As(err, &refused) || refused.Reason != c.Expect {
				t.Fatalf("want %s, got %v", c.Expect, err)
			}
		})
	}
}

func TestSignReproducesTheVectors(t *testing.T) {
	vectors := loadVectors(t)
	for name, secret := range vectors.Secrets {
		if got := Sign([]byte(vectors.Body), secret, vectors.Timestamp); got != vectors.Signatures[name] {
			t.Fatalf("%s: %s, want %s", name, got, vectors.Signatures[name])
		}
	}
}
