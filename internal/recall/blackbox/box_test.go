package blackbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func newBox(t *testing.T) *Box {
	t.Helper()
	root := t.TempDir()
	long := filepath.Join(root, ".claude", "memory_long")
	st, err := tables.Open(filepath.Join(long, TablesDir, "journal.jsonl"), filepath.Join(t.TempDir(), "tables.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &Box{
		Root: root, LongDir: long, Tables: st,
		Text:       indexedText(t, root, func() time.Time { return t0 }),
		VectorWhy:  "no embedding provider configured",
		OffersPath: filepath.Join(t.TempDir(), "offers.jsonl"),
		ThreadsDir: filepath.Join(t.TempDir(), "threads"),
	}
}

func raw(t *testing.T, js string) Raw {
	t.Helper()
	r, err := DecodeRaw([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func remember(t *testing.T, b *Box, js string) *RememberAnswer {
	t.Helper()
	req, fates, err := ParseRemember(raw(t, js))
	if err != nil {
		t.Fatal(err)
	}
	ans, err := b.Remember(context.Background(), req, fates, t0)
	if err != nil {
		t.Fatal(err)
	}
	return ans
}

func recall(t *testing.T, b *Box, js string) *RecallAnswer {
	t.Helper()
	req, fates, err := ParseRecall(raw(t, js), b.Caps())
	if err != nil {
		t.Fatal(err)
	}
	ans, err := b.Recall(context.Background(), req, fates, t0)
	if err != nil {
		t.Fatal(err)
	}
	return ans
}

func writeFile(t testing.TB, path, body string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRecallParamFates(t *testing.T) {
	b := newBox(t)
	ans := recall(t, b, `{"text":"anything","depth":"deep","chain":true,"geo":"Madrid","calendar":"2026-05..2026-08",
		"table":"friends","key":"Dima","kind":"phone","limit":3,"thread":"abc","lang":"ru","colour":"blue"}`)
	want := map[string]string{
		"depth": FateAccepted, "chain": FateAccepted, "geo": FateAccepted, "calendar": FateAccepted,
		"table": FateAccepted, "key": FateAccepted, "kind": FateAccepted, "limit": FateAccepted,
		"thread": FateAccepted, "lang": FateNotSupported, "colour": FateNotSupported,
	}
	for k, f := range want {
		if ans.Params[k].Fate != f {
			t.Errorf("%s: fate %+v, want %s", k, ans.Params[k], f)
		}
	}
	if len(ans.Params) != len(want) {
		t.Errorf("every sent key and only those: %v", ans.Params)
	}
	if !strings.Contains(ans.Params["depth"].Note, "level 4 unavailable: no embedding provider") {
		t.Errorf("depth note must name the missing provider: %q", ans.Params["depth"].Note)
	}
	if !strings.Contains(ans.Params["colour"].Note, "unknown parameter") {
		t.Errorf("unknown key note: %q", ans.Params["colour"].Note)
	}
	bad := recall(t, b, `{"text":"anything","depth":"ultra","chain":"yes","geo":5,"calendar":"2026-13","limit":-1,
		"table":"money; DROP TABLE users","key":""}`)
	for _, k := range []string{"depth", "chain", "geo", "calendar", "limit", "table", "key"} {
		if f := bad.Params[k]; f.Fate != FateBadForm || f.Reason == "" {
			t.Errorf("%s: %+v, want bad_form with a reason", k, f)
		}
	}
	if !strings.Contains(bad.Params["table"].Reason, `';'`) {
		t.Errorf("the refused name must name the character: %q", bad.Params["table"].Reason)
	}
	if bad.DepthRequested != "standard" || bad.DepthUsed != LevelGraph {
		t.Errorf("a bad depth falls back to standard: %s %d", bad.DepthRequested, bad.DepthUsed)
	}
	if _, _, err := ParseRecall(raw(t, `{"depth":"deep"}`), Caps{}); err != ErrNoText {
		t.Errorf("no text: %v", err)
	}
}

func TestRememberParamFates(t *testing.T) {
	b := newBox(t)
	ans := remember(t, b, `{"text":"Dima's phone is 111","table":"Friends","key":"Dima","kind":"phone","value":111,
		"claim":"stated","basis":"he said so","thread":"t","mood":"happy"}`)
	for k, f := range map[string]string{"table": FateAccepted, "key": FateAccepted, "kind": FateAccepted, "value": FateAccepted,
		"claim": FateAccepted, "basis": FateAccepted, "thread": FateAccepted, "mood": FateNotSupported} {
		if ans.Params[k].Fate != f {
			t.Errorf("%s: %+v, want %s", k, ans.Params[k], f)
		}
	}
	if len(ans.Stores) != 2 || ans.Stores[0].Store != "memory_text" || ans.Stores[1].Store != "tables" {
		t.Fatalf("stores %+v", ans.Stores)
	}
	if strings.Join(ans.TablesCreated, ",") != "friends" || strings.Join(ans.KindsCreated, ",") != "friends.phone" || strings.Join(ans.NewTablesWithRows, ",") != "friends" {
		t.Fatalf("created %+v %+v %+v", ans.TablesCreated, ans.KindsCreated, ans.NewTablesWithRows)
	}
	again := remember(t, b, `{"text":"Dima's phone is 222","table":"friends","key":"Dima","kind":"phone","value":"222"}`)
	if len(again.TablesCreated)+len(again.KindsCreated)+len(again.NewTablesWithRows) != 0 {
		t.Fatalf("a write in place creates nothing: %+v", again)
	}
	bad := remember(t, b, `{"text":"x","claim":"maybe","key":"Dima","value":{"a":1},"table":"t\"x"}`)
	for _, k := range []string{"claim", "key", "value", "table"} {
		if f := bad.Params[k]; f.Fate != FateBadForm || f.Reason == "" {
			t.Errorf("%s: %+v, want bad_form", k, f)
		}
	}
	if len(bad.Stores) != 1 || len(bad.TablesCreated) != 0 {
		t.Errorf("a refused table writes only the text record: %+v", bad)
	}
}

func TestLadderStopsAtFirstAnsweringLevel(t *testing.T) {
	b := newBox(t)
	remember(t, b, `{"text":"Dima's phone is 111","table":"friends","key":"Dima","kind":"phone","value":"111"}`)
	a1 := recall(t, b, `{"text":"what is the phone of Dima","depth":"extreme"}`)
	if a1.DepthUsed != 1 || len(a1.Report) != 1 || a1.Report[0].Status != "answered" || a1.Kind != KindAffirmative {
		t.Fatalf("level 1: %+v", a1)
	}
	if a1.DepthRequested != "extreme" {
		t.Fatalf("depth_requested %q", a1.DepthRequested)
	}
	remember(t, b, `{"text":"The deploy key rotates every ninety days, decided in the security review."}`)
	a2 := recall(t, b, `{"text":"how often does the deploy key rotate?","chain":true}`)
	if a2.DepthUsed != 2 || len(a2.Report) != 2 || a2.Report[0].Status != "empty" || a2.Report[1].Status != "answered" {
		t.Fatalf("level 2: %+v", a2.Report)
	}
	if s, _ := a2.Answer.(string); !strings.Contains(s, "ninety days") || a2.Kind != KindProbabilistic {
		t.Fatalf("level 2 answer %#v kind %s", a2.Answer, a2.Kind)
	}
	if len(a2.Chain) != 2 || a2.Items[0].ID == "" || !strings.HasPrefix(a2.Items[0].Cite, ".claude/memory_long/records/2026-11.md#L") {
		t.Fatalf("chain and item: %+v %+v", a2.Chain, a2.Items)
	}
	if recall(t, b, `{"text":"how often does the deploy key rotate?"}`).Chain != nil {
		t.Fatal("the chain is returned only when asked")
	}
	// Only the graph knows this: a recorded relation, not searchable text.
	if _, err := kgraph.Link(b.LongDir, "Orion", "Vega", "orbits", "", t0, 0); err != nil {
		t.Fatal(err)
	}
	a3 := recall(t, b, `{"text":"Orion"}`)
	if a3.DepthUsed != 3 || a3.Report[2].Status != "answered" {
		t.Fatalf("level 3: %+v", a3.Report)
	}
	if _, isCtx := a3.Answer.(interface{ Empty() bool }); !isCtx {
		t.Fatalf("level 3 answers with graph context, got %T", a3.Answer)
	}
	none := recall(t, b, `{"text":"quarterly penguin census","depth":"deep"}`)
	if none.Kind != KindNone || none.DepthUsed != 3 || none.Answer != nil {
		t.Fatalf("none: %+v", none)
	}
	if r := none.Report[3]; r.Level != 4 || r.Status != "skipped" || !strings.Contains(r.Note, "embedding") {
		t.Fatalf("level 4 without a provider is skipped, saying why: %+v", r)
	}
}

func TestScope(t *testing.T) {
	b := newBox(t)
	remember(t, b, `{"text":"taxi 111","table":"taxi","key":"favourite","kind":"number","value":"111","geo":"Madrid"}`)
	remember(t, b, `{"text":"taxi 222","table":"taxi","key":"favourite","kind":"number","value":"222","geo":"Barcelona"}`)
	dep := recall(t, b, `{"text":"favourite taxi number"}`)
	if dep.Kind != KindParamDep || len(dep.Missing) != 1 || dep.Missing[0].Param != "geo" {
		t.Fatalf("want parameter_dependent on geo: %+v", dep)
	}
	if !strings.Contains(dep.Missing[0].Why, "Barcelona, Madrid") || len(dep.Items) != 2 {
		t.Fatalf("missing must say why and keep the candidates: %+v", dep)
	}
	mad := recall(t, b, `{"text":"favourite taxi number","geo":"madrid"}`)
	if mad.Kind != KindAffirmative || len(mad.Items) != 1 || mad.Items[0].Data.(tables.Cell).Value != "111" {
		t.Fatalf("Madrid: %+v", mad)
	}
	spain := recall(t, b, `{"text":"favourite taxi number","geo":"Spain"}`)
	if spain.Kind != KindNone || spain.Report[0].OutScope != 2 {
		t.Fatalf("no inheritance: Madrid is not Spain: %+v", spain)
	}
	remember(t, b, `{"text":"The office wifi password was tulip during the renovation","calendar":"2026-05..2026-06"}`)
	in := recall(t, b, `{"text":"office wifi password","calendar":"2026-05-10"}`)
	out := recall(t, b, `{"text":"office wifi password","calendar":"2026-07"}`)
	if in.DepthUsed != 2 || in.Kind != KindProbabilistic || out.Kind != KindNone || out.Report[1].OutScope != 1 {
		t.Fatalf("calendar: in %+v / out %+v", in, out)
	}
	remember(t, b, `{"text":"The espresso machine needs descaling monthly"}`)
	unk := recall(t, b, `{"text":"espresso machine descaling","geo":"Madrid"}`)
	if unk.Kind != KindProbabilistic || unk.Items[0].Fit != "unknown" {
		t.Fatalf("an unscoped record is unknown, not everywhere: %+v", unk)
	}
}

func TestDenialWithholdsTheInferenceKeepsTheFact(t *testing.T) {
	b := newBox(t)
	remember(t, b, `{"text":"Denis served in the Kremlin regiment from 1992 to 1994"}`)
	q := `{"text":"Denis Kremlin regiment"}`
	first := recall(t, b, q)
	if first.DepthUsed != 2 || len(first.Items) != 1 {
		t.Fatalf("%+v", first)
	}
	id := first.Items[0].ID
	d, err := b.Deny(id, "he never met anyone there", t0)
	if err != nil || !d.Stored || !d.Known {
		t.Fatalf("deny: %+v %v", d, err)
	}
	if _, err := b.Deny("r-123", "x", t0); err == nil {
		t.Fatal("a non-inference id must be refused")
	}
	again := recall(t, b, q)
	if again.Kind != KindNone || again.Report[1].Denied != 1 {
		t.Fatalf("denied inference offered again: %+v", again)
	}
	records, _ := os.ReadFile(filepath.Join(b.LongDir, "records", "2026-11.md"))
	denials, _ := os.ReadFile(filepath.Join(b.LongDir, filepath.FromSlash(DenialsFile)))
	if !strings.Contains(string(records), "Kremlin regiment") || !strings.Contains(string(denials), id) || !strings.Contains(string(denials), "he never met anyone there") {
		t.Fatalf("the fact and the denial must both stay:\n%s\n%s", records, denials)
	}
	other := recall(t, b, `{"text":"when did Denis serve in the regiment"}`)
	if other.DepthUsed != 2 || len(other.Items) != 1 || other.Items[0].Fact != first.Items[0].Fact {
		t.Fatalf("the fact still answers another question: %+v", other)
	}
	if b2, _ := json.Marshal(again); strings.Contains(string(b2), id) {
		t.Fatal("denied id leaked into the answer")
	}
}

func TestRememberPromotesToListAndAppends(t *testing.T) {
	b := newBox(t)
	remember(t, b, `{"text":"Yulia is the product manager","table":"team","key":"architect","kind":"member","value":"Yulia"}`)
	first := remember(t, b, `{"text":"Dima is the manager","table":"team","key":"architect","kind":"member","value":"Dima","list":"team members"}`)
	if strings.Join(first.TablesCreated, ",") != "team_members" || strings.Join(first.NewTablesWithRows, ",") != "team_members" {
		t.Fatalf("the list is a new table with rows: %+v", first)
	}
	if !strings.Contains(first.Stores[1].What, "became the list team_members") {
		t.Fatalf("%+v", first.Stores)
	}
	second := remember(t, b, `{"text":"Misha is the designer","table":"team","key":"architect","kind":"member","value":"Misha","list":"team members"}`)
	if len(second.TablesCreated) != 0 || !strings.Contains(second.Stores[1].What, "appended to the list team_members") {
		t.Fatalf("appending to an existing list creates nothing: %+v", second)
	}
	cells, _ := b.Tables.Lookup(tables.Query{Table: "team_members", Key: "architect"})
	var vals []string
	for _, c := range cells {
		vals = append(vals, c.Value)
	}
	if strings.Join(vals, ",") != "Yulia,Dima,Misha" {
		t.Fatalf("the old value moved first, with its own time: %v", vals)
	}
}
