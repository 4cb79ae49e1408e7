package blackbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func recallAt(t *testing.T, b *Box, js string, at time.Time) *RecallAnswer {
	t.Helper()
	req, fates, err := ParseRecall(raw(t, js), b.Caps())
	if err != nil {
		t.Fatal(err)
	}
	ans, err := b.Recall(context.Background(), req, fates, at)
	if err != nil {
		t.Fatal(err)
	}
	return ans
}

func threadFiles(t *testing.T, b *Box) []string {
	t.Helper()
	var out []string
	es, _ := os.ReadDir(b.ThreadsDir)
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".json") {
			out = append(out, e.Name())
		}
	}
	return out
}

// One research cycle's calls share their history: a recall and a remember
// of the thread are given to the research call of the same thread, whose
// answer ends the cycle; the next call with the id starts afresh, and the
// history is gone from the state dir.
func TestThreadKeepsOneCycle(t *testing.T) {
	b := newBox(t)
	cmd, dir := standIn(t, "Denis may have known Yeltsin: he served in the Kremlin regiment (records 2026-11).")
	withResearch(b, cmd)
	remember(t, b, `{"text":"The staging database lives on host kestrel"}`)

	first := recall(t, b, `{"text":"staging database host","thread":"cycle-7"}`)
	if first.Thread == nil || first.Thread.Call != 1 || first.Thread.Earlier != 0 || first.Params["thread"].Fate != FateAccepted ||
		!strings.Contains(first.Params["thread"].Note, "a new cycle") || len(threadFiles(t, b)) != 1 {
		t.Fatalf("the first call opens the cycle: %+v %+v", first.Thread, first.Params["thread"])
	}
	rem := remember(t, b, `{"text":"Denis served in the Kremlin regiment from 1992 to 1994","thread":"cycle-7"}`)
	if rem.Thread == nil || rem.Thread.Call != 2 || rem.Thread.Earlier != 1 || !strings.Contains(rem.Params["thread"].Note, "call 2 of the cycle") {
		t.Fatalf("remember joins the cycle: %+v", rem.Thread)
	}
	res := recall(t, b, `{"text":"could anyone I know have met Yeltsin?","depth":"extreme","thread":"cycle-7"}`)
	if res.DepthUsed != LevelResearch || res.Thread == nil || !res.Thread.Ended || res.Thread.Call != 3 || res.Thread.Earlier != 2 {
		t.Fatalf("research answers and ends the cycle: %+v %+v", res.Thread, res.Report)
	}
	prompt, _ := os.ReadFile(filepath.Join(dir, "prompt.2"))
	for _, want := range []string{"Earlier in this research cycle", "- asked: staging database host → ", "kestrel", "- remembered: Denis served in the Kremlin regiment from 1992 to 1994"} {
		if !strings.Contains(string(prompt), want) {
			t.Fatalf("the answering call is given the cycle's history (%q):\n%s", want, prompt)
		}
	}
	if files := threadFiles(t, b); len(files) != 0 {
		t.Fatalf("an ended cycle leaves no history: %v", files)
	}
	// The same id after the end is a new cycle: nothing of the old one.
	again := recall(t, b, `{"text":"who guards the Kremlin?","depth":"extreme","thread":"cycle-7","relearn":false}`)
	if again.Thread == nil || again.Thread.Earlier != 0 || again.Thread.Call != 1 {
		t.Fatalf("a new cycle: %+v", again.Thread)
	}
	p4, _ := os.ReadFile(filepath.Join(dir, "prompt.4"))
	if strings.Contains(string(p4), "Earlier in this research cycle") || strings.Contains(string(p4), "kestrel") {
		t.Fatalf("no history after the cycle's end:\n%s", p4)
	}
	// A recall without a thread is given no history at all.
	none := recall(t, b, `{"text":"who feeds the otters?","depth":"extreme","relearn":false}`)
	p6, _ := os.ReadFile(filepath.Join(dir, "prompt.6"))
	if none.Thread != nil || strings.Contains(string(p6), "Earlier in this research cycle") {
		t.Fatalf("no thread, no history: %+v\n%s", none.Thread, p6)
	}
}

// An idle cycle ends: after ThreadIdle without a call its history is
// never read again, and it is swept from the state dir; the history is
// bounded; a thread needs a state dir and a usable id.
func TestThreadIdleBoundsAndForm(t *testing.T) {
	b := newBox(t)
	recallAt(t, b, `{"text":"a","thread":"old"}`, t0)
	recallAt(t, b, `{"text":"b","thread":"idle"}`, t0)
	if n := len(threadFiles(t, b)); n != 2 {
		t.Fatalf("two cycles: %d", n)
	}
	later := t0.Add(ThreadIdle + time.Minute)
	for _, name := range threadFiles(t, b) { // the files' times, as the clock of the test has it
		os.Chtimes(filepath.Join(b.ThreadsDir, name), t0, t0)
	}
	a := recallAt(t, b, `{"text":"c","thread":"old"}`, later)
	if a.Thread.Earlier != 0 || !strings.Contains(a.Thread.Note, "the earlier one with this id ended after 10m0s idle") {
		t.Fatalf("an idle cycle is over: %+v", a.Thread)
	}
	if files := threadFiles(t, b); len(files) != 1 || files[0] != filepath.Base(b.threadPath("old")) {
		t.Fatalf("the idle cycle of another id is swept: %v", files)
	}
	for i := 0; i < MaxThreadEntries+5; i++ {
		req, fates, _ := ParseRemember(raw(t, `{"text":"note `+strings.Repeat("x", i)+`","thread":"long"}`))
		if _, err := b.Remember(context.Background(), req, fates, later); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(b.threadPath("long"))
	var tf threadFile
	if json.Unmarshal(data, &tf) != nil || len(tf.Entries) != MaxThreadEntries || tf.Calls != MaxThreadEntries+5 || !strings.HasSuffix(tf.Entries[0].Text, strings.Repeat("x", 5)) {
		t.Fatalf("the history keeps the last %d calls: %d entries, %d calls", MaxThreadEntries, len(tf.Entries), tf.Calls)
	}
	if name := filepath.Base(b.threadPath("../../long")); len(name) != 37 || strings.ContainsAny(strings.TrimSuffix(name, ".json"), "./long") {
		t.Fatalf("the file is named by a hash of the id, never by the id: %s", name)
	}
	for _, js := range []string{`{"text":"x","thread":""}`, `{"text":"x","thread":7}`, `{"text":"x","thread":"` + strings.Repeat("t", 201) + `"}`} {
		if f := recall(t, b, js).Params["thread"]; f.Fate != FateBadForm {
			t.Errorf("%s: %+v", js, f)
		}
	}
	b.ThreadsDir = ""
	if f := recall(t, b, `{"text":"x","thread":"t"}`).Params["thread"]; f.Fate != FateNotSupported {
		t.Errorf("no state dir: %+v", f)
	}
	if f := remember(t, b, `{"text":"x","thread":"t"}`).Params["thread"]; f.Fate != FateNotSupported {
		t.Errorf("no state dir: %+v", f)
	}
}
