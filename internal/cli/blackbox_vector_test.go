package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// conceptEmbedder is an Ollama-shaped embedding endpoint that knows two
// concepts by several words each, so similarity exists without shared words.
func conceptEmbedder(t *testing.T) *httptest.Server {
	t.Helper()
	concepts := [][]string{{"car", "automobile", "vehicle", "sedan"}, {"doctor", "physician", "clinic"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Prompt string }
		if r.URL.Path != "/api/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "bad request", 400)
			return
		}
		v := []float32{0, 0, 0.05}
		for _, w := range strings.Fields(strings.ToLower(req.Prompt)) {
			w = strings.Trim(w, ".,?!'\"")
			for i, c := range concepts {
				for _, word := range c {
					if w == word {
						v[i]++
					}
				}
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"embedding": v})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestDeepRecallClimbsToVectorsOnlyWhenTextFails(t *testing.T) {
	env, proj := bbEnv(t)
	srv := conceptEmbedder(t)
	env["CEREBRO_EMBEDDING_PROVIDER"], env["CEREBRO_EMBEDDING_URL"], env["CEREBRO_EMBEDDING_MODEL"] = "ollama", srv.URL, "concepts"
	run(t, env, "", "remember", "--project", proj, "Anna parks her blue sedan behind the library")
	q := "where is the automobile kept"
	out, _, _ := run(t, env, "", "recall", "--project", proj, q)
	if a := object(t, out); a["kind"] != "none" || a["depth_used"].(float64) != 3 {
		t.Fatalf("standard depth never reaches vectors: %s", out)
	}
	out, _, _ = run(t, env, "", "recall", "--project", proj, "--depth", "deep", q)
	a := object(t, out)
	if a["depth_used"].(float64) != 4 || !strings.Contains(a["answer"].(string), "blue sedan") || a["relearned"] == nil {
		t.Fatalf("deep depth answers at level 4 by similarity, relearned: %s", out)
	}
	out, _, _ = run(t, env, "", "recall", "--project", proj, "--depth", "deep", q)
	if a := object(t, out); a["depth_used"].(float64) > 3 || !strings.Contains(fmt.Sprint(a["answer"]), "blue sedan") {
		t.Fatalf("relearned: the same question costs level 2–3 next time: %s", out)
	}
	if note := a["params"].(map[string]any)["depth"].(map[string]any)["note"].(string); strings.Contains(note, "unavailable") {
		t.Fatalf("with a provider level 4 is available: %q", note)
	}
	// A question the text level answers never pays for vectors.
	out, _, _ = run(t, env, "", "recall", "--project", proj, "--depth", "deep", "Anna blue sedan library")
	if a := object(t, out); a["depth_used"].(float64) != 2 {
		t.Fatalf("%s", out)
	}
	// Nothing similar enough: level 4 is consulted and gives nothing.
	out, _, _ = run(t, env, "", "recall", "--project", proj, "--depth", "deep", "which physician")
	if a := object(t, out); a["kind"] != "none" || a["depth_used"].(float64) != 4 {
		t.Fatalf("%s", out)
	}
}
