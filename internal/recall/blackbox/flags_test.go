package blackbox

import (
	"encoding/json"
	"testing"
)

// TestCheckFlags: values given as flags are judged by the contract; the
// refused ones come back in the contract's order, good ones not at all.
func TestCheckFlags(t *testing.T) {
	if got := CheckFlags(VerbRecall, map[string]any{"depth": "deep", "limit": 3}); len(got) != 0 {
		t.Fatalf("good values refused: %+v", got)
	}
	got := CheckFlags(VerbRecall, map[string]any{"limit": -4, "depth": "deeep"})
	if len(got) != 2 {
		t.Fatalf("problems %+v", got)
	}
	if got[0].Param.Name != "depth" || got[0].Value != "deeep" || got[0].Param.Kind != KindChoice || len(got[0].Param.Choices) == 0 {
		t.Errorf("first problem %+v", got[0])
	}
	if got[1].Param.Name != "limit" || got[1].Raw != "-4" || got[1].Reason == "" {
		t.Errorf("second problem %+v", got[1])
	}
	if got := CheckFlags(VerbRemember, nil); got != nil {
		t.Errorf("nothing given: %+v", got)
	}
}

// TestAssembleRequest: the words are the text, flags and --param follow,
// a --param value is JSON when it parses and a string otherwise, and a
// --param without "=" is refused.
func TestAssembleRequest(t *testing.T) {
	base := Raw{"text": json.RawMessage(`"from the file"`), "depth": json.RawMessage(`"deep"`)}
	req, err := AssembleRequest(base, []string{"what", "ships"}, map[string]any{"limit": 3}, []string{"depth=extreme", "chain=true", "note=a b"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"text": `"what ships"`, "depth": `"extreme"`, "limit": `3`, "chain": `true`, "note": `"a b"`}
	for k, v := range want {
		if string(req[k]) != v {
			t.Errorf("%s = %s, want %s", k, req[k], v)
		}
	}
	if _, err := AssembleRequest(nil, nil, nil, []string{"novalue"}); err == nil {
		t.Error("a --param without = was accepted")
	}
}
