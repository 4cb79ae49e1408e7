package blackbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

// standIn writes a stand-in `claude` that counts its calls, keeps each
// prompt (read from stdin) and its arguments, and answers a rephrasing
// call with lines and any other call with reply.
func standIn(t *testing.T, reply string) (cmd, dir string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in claude is a shell script")
	}
	dir = t.TempDir()
	cmd = filepath.Join(dir, "claude")
	script := `#!/bin/sh
d='` + dir + `'
n=$(cat "$d/calls" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$d/calls"
printf '%s' "$CEREBRO_NESTED" > "$d/nested"
printf '%s\n' "$@" > "$d/args.$n"
cat > "$d/prompt.$n"
if grep -q '^REPHRASE' "$d/prompt.$n"; then
  printf '%s\n' '1. Boris Yeltsin' '2. the president of Russia' '- Kremlin regiment' 'Ельцин' 'could Denis have known Yeltsin?'
else
  printf '%s\n' '` + reply + `'
fi
`
	if err := os.WriteFile(cmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return cmd, dir
}

func calls(dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, "calls"))
	n := 0
	fmt.Sscan(string(b), &n)
	return n
}

func withResearch(b *Box, cmd string) {
	b.ResearchCalls, b.ResearchSeconds = 3, 20
	b.Research = ClaudeResearch{Runner: claude.Runner{Command: cmd, Dir: b.Root, Env: []string{"PATH=/usr/bin:/bin"}, Guard: claude.Unguarded}, Memhook: "/x/memhook"}
}

// The seed's example: Denis served in the Kremlin regiment; could he have
// known Yeltsin? Level 5 walks and answers, the answer is relearned before
// it returns, the same or a paraphrased question then costs no model call,
// and a denial of the conclusion survives a paraphrase while the fact
// stays answerable.
func TestDenisAndTheKremlinRegiment(t *testing.T) {
	b := newBox(t)
	answer := "Your friend Denis may have known president Boris Yeltsin: he served in the Kremlin regiment from 1992 to 1994 (record of automation 134)."
	cmd, dir := standIn(t, answer)
	withResearch(b, cmd)
	remember(t, b, `{"text":"My friend Denis served in the Kremlin regiment from 1992 to 1994 (automation 134)."}`)
	if _, err := kgraph.Link(b.LongDir, "Denis", "Kremlin regiment", "served in", "", t0, 0); err != nil {
		t.Fatal(err)
	}
	q := `{"text":"Could my friend Denis have known Yeltsin?","depth":"extreme","chain":true}`

	first := recall(t, b, q)
	if first.DepthUsed != LevelResearch || first.Answer != answer || calls(dir) != 2 {
		t.Fatalf("level 5 answers with two calls (rephrasings, answer): calls %d %+v", calls(dir), first)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "nested")); string(got) != "1" {
		t.Fatalf("the research child runs with CEREBRO_NESTED=1, saw %q", got)
	}
	args1, _ := os.ReadFile(filepath.Join(dir, "args.1"))
	args2, _ := os.ReadFile(filepath.Join(dir, "args.2"))
	prompt2, _ := os.ReadFile(filepath.Join(dir, "prompt.2"))
	// Claude Code's read-only tools need no permission in -p, so only
	// --tools keeps them out: the rephrasing call gets none, the answer
	// reads memory through memhook's recall alone.
	if strings.Contains(string(args1), "allowedTools") || !strings.Contains(string(args1), "--tools\n\n") ||
		!strings.Contains(string(args2), "--tools\nBash\n") || !strings.Contains(string(args2), "--allowedTools\nBash(\"/x/memhook\" recall:*)\n") ||
		strings.Contains(string(args2), "Read") || strings.Contains(string(args2), "Grep") || strings.Contains(string(args2), "Glob") {
		t.Fatalf("rephrasing gets no tool, the answer only memhook's recall:\n%s\n%s", args1, args2)
	}
	if strings.Contains(string(args2), "Yeltsin") || !strings.Contains(string(prompt2), "Kremlin regiment from 1992") {
		t.Fatalf("the prompt goes on stdin and carries what the walk found:\nargs %s\nprompt %s", args2, prompt2)
	}
	stores := []string{}
	for _, s := range first.Chain {
		stores = append(stores, s.Store)
	}
	if got := strings.Join(stores, ","); !strings.HasPrefix(got, "tables,memory_text,knowledge_graph,research: people,research: graph neighbours,research: vector,research: rephrasings,research: text search") ||
		!strings.HasSuffix(got, "research: answer,research") || strings.Count(got, "research: text search") != 5 {
		t.Fatalf("each step of the walk is in the chain: %s", got)
	}
	if p := first.Chain[3]; len(p.Found) != 1 || p.Found[0].Data.(tables.Cell).Key != "Denis" {
		t.Fatalf("the people step finds the friend the phrase was shaped into: %+v", p)
	}
	if len(first.Chain[4].Found) == 0 || !strings.Contains(first.Chain[4].Query, "Kremlin regiment") {
		t.Fatalf("the graph step finds the neighbour's passage: %+v", first.Chain[4])
	}
	r := first.Relearned
	if r == nil || !strings.HasPrefix(r.Object, "sha256-") || r.Summary == "" || r.Relation == "" || first.Relearn != "" {
		t.Fatalf("relearned before returning, with its ids: %+v %q", r, first.Relearn)
	}

	same := recall(t, b, q)
	para := recall(t, b, `{"text":"Is it possible that Denis knew Yeltsin, the president?","depth":"extreme"}`)
	if calls(dir) != 2 || same.DepthUsed > LevelGraph || para.DepthUsed > LevelGraph || para.Kind == KindNone {
		t.Fatalf("no model call the second time: calls %d, same %d, paraphrase %d %+v", calls(dir), same.DepthUsed, para.DepthUsed, para.Report)
	}
	if obj, _ := same.Answer.(map[string]string); obj["object"] != r.Object || !strings.Contains(obj["summary"], "Kremlin regiment") {
		t.Fatalf("the same question gets the object and its summary: %#v", same.Answer)
	}
	// A paraphrase in the words of the walk's rephrasings (kept on the
	// summary page) finds it by text, though the graph knows no Russia.
	russia := recall(t, b, `{"text":"Did Denis know the president of Russia?","depth":"extreme"}`)
	if calls(dir) != 2 || russia.DepthUsed != LevelText || russia.Items[0].Fact != same.Items[0].Fact {
		t.Fatalf("a paraphrase in the rephrasings' words: calls %d %+v", calls(dir), russia)
	}

	d, err := b.Deny(same.Items[0].ID, "they served together, but Denis never saw him", t0)
	if err != nil || d.Claim == nil || strings.Join(d.Claim.Entities, ",") != "deni,yeltsin" {
		t.Fatalf("the denial holds against the claim: %+v %v", d, err)
	}
	for _, p := range []string{
		`{"text":"Is it possible that Denis knew Yeltsin, the president?","depth":"extreme"}`,
		`{"text":"Did Boris Yeltsin ever meet Denis?","depth":"extreme"}`,
	} {
		a := recall(t, b, p)
		denied := 0
		for _, rep := range a.Report {
			denied += rep.Denied
		}
		if a.Kind != KindNone || denied == 0 || calls(dir) != 2 {
			t.Fatalf("%s: a paraphrase must not bring the denied conclusion back (calls %d): %+v", p, calls(dir), a)
		}
		if last := a.Report[len(a.Report)-1]; last.Level != LevelResearch || last.Status != "skipped" || !strings.Contains(last.Note, "denied") {
			t.Fatalf("research is not spent on a denied claim: %+v", last)
		}
	}
	fact := recall(t, b, `{"text":"When did Denis serve in the Kremlin regiment?"}`)
	if fact.DepthUsed != LevelText || fact.Kind == KindNone || !strings.Contains(fmt.Sprint(fact.Answer), "1992 to 1994") {
		t.Fatalf("the fact stays answerable: %+v", fact)
	}
}

func TestRelearnOptOutPaysAgain(t *testing.T) {
	b := newBox(t)
	cmd, dir := standIn(t, "The census is run by Ada (notes/census.md).")
	withResearch(b, cmd)
	q := `{"text":"who runs the quarterly penguin census?","depth":"extreme","relearn":false}`
	a := recall(t, b, q)
	if a.Relearned != nil || !strings.Contains(a.Relearn, "not relearned") || a.Params["relearn"].Fate != FateAccepted || !strings.Contains(a.Params["relearn"].Note, "not relearned") {
		t.Fatalf("opting out gets its fate: %+v", a)
	}
	again := recall(t, b, q)
	if again.DepthUsed != LevelResearch || calls(dir) != 4 {
		t.Fatalf("without relearn the same question pays level 5 again: calls %d %+v", calls(dir), again.Report)
	}
	if bad := recall(t, b, `{"text":"x y z","relearn":"no"}`); bad.Params["relearn"].Fate != FateBadForm {
		t.Fatalf("%+v", bad.Params)
	}
}

func TestOneCallBudgetSkipsRephrasing(t *testing.T) {
	b := newBox(t)
	cmd, dir := standIn(t, "An answer.")
	withResearch(b, cmd)
	b.ResearchCalls = 1
	a := recall(t, b, `{"text":"who runs the quarterly penguin census?","depth":"extreme","chain":true}`)
	if a.DepthUsed != LevelResearch || calls(dir) != 1 {
		t.Fatalf("%d calls: %+v", calls(dir), a)
	}
	for _, s := range a.Chain {
		if s.Store == "research: rephrasings" && !strings.Contains(s.Note, "skipped") {
			t.Fatalf("%+v", s)
		}
	}
}

func TestRelearnWithoutLinkTableStillCompletes(t *testing.T) {
	b := newBox(t)
	res, err := b.Relearn(context.Background(), RelearnRequest{Artifact: []byte("a,b\n1,2\n"), ArtifactName: "t.csv", Summary: "Revenue May to August was 10 units; details in the table.", About: "Revenue"}, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if res.LinkTable.Status != "skipped" || !strings.Contains(res.LinkTable.Note, "revenue_links") {
		t.Fatalf("%+v", res.LinkTable)
	}
	a := recall(t, b, `{"text":"revenue May August"}`)
	if a.DepthUsed != LevelText {
		t.Fatalf("%+v", a.Report)
	}
	if _, err := b.Relearn(context.Background(), RelearnRequest{Summary: "x", About: "a]]b"}, nil, t0); err == nil {
		t.Fatal("an entity that breaks a wikilink must be refused")
	}
}

func TestNestedRecallNeverClimbsToFive(t *testing.T) {
	b := newBox(t)
	cmd, dir := standIn(t, "should not run")
	withResearch(b, cmd)
	b.Nested = true
	a := recall(t, b, `{"text":"quarterly penguin census","depth":"extreme"}`)
	if a.DepthUsed != LevelGraph || a.Kind != KindNone {
		t.Fatalf("%+v", a)
	}
	if r := a.Report[len(a.Report)-1]; r.Level != 5 || r.Status != "skipped" || !strings.Contains(r.Note, "CEREBRO_NESTED") {
		t.Fatalf("level 5 must say why it did not run: %+v", r)
	}
	if !strings.Contains(a.Params["depth"].Note, "never runs inside") {
		t.Fatalf("depth note: %q", a.Params["depth"].Note)
	}
	if calls(dir) != 0 {
		t.Fatal("the child ran")
	}
}

func TestResearchNoneAndBudget(t *testing.T) {
	b := newBox(t)
	cmd, _ := standIn(t, NoAnswer)
	withResearch(b, cmd)
	a := recall(t, b, `{"text":"quarterly penguin census","depth":"extreme"}`)
	if a.DepthUsed != LevelResearch || a.Kind != KindNone || a.Relearned != nil {
		t.Fatalf("%+v", a)
	}
	// A claude that forks a sleeper and ignores TERM: the budget holds.
	// The sleeper marks its natural end, which a research that waited for
	// it instead of stopping at the budget would let it reach.
	dir := t.TempDir()
	slow, natural := filepath.Join(dir, "claude"), filepath.Join(dir, "natural")
	os.WriteFile(slow, []byte("#!/bin/sh\ntrap '' TERM\n(sleep 30; echo done > '"+natural+"') &\nsleep 30\n"), 0o755)
	withResearch(b, slow)
	b.ResearchSeconds = 1
	a = recall(t, b, `{"text":"quarterly penguin census","depth":"extreme"}`)
	r := a.Report[len(a.Report)-1]
	if _, err := os.Stat(natural); err == nil || r.Status != "error" || !strings.Contains(r.Note, "budget") {
		t.Fatalf("the budget must stop research before the stand-in's own end (ended on its own: %v): %+v", err == nil, r)
	}
}

func TestDenialNamesTheFactsTheAnswerRestedOn(t *testing.T) {
	b := newBox(t)
	cmd, _ := standIn(t, "Denis may have known Yeltsin.")
	withResearch(b, cmd)
	remember(t, b, `{"text":"My friend Denis served in the Kremlin regiment from 1992 to 1994."}`)
	kgraph.Link(b.LongDir, "Denis", "Kremlin regiment", "served in", "", t0, 0)
	a := recall(t, b, `{"text":"Could Denis have known Yeltsin?","depth":"extreme","relearn":false}`)
	if a.DepthUsed != LevelResearch || len(a.Items) < 2 {
		t.Fatalf("the answer and the passage the walk gave it: %+v", a.Items)
	}
	d, err := b.Deny(a.Items[0].ID, "never met", t0)
	if err != nil || len(d.With) == 0 || d.With[0] != a.Items[1].Fact {
		t.Fatalf("the denial names what the answer rested on: %+v %v", d, err)
	}
	den, _ := os.ReadFile(filepath.Join(b.LongDir, filepath.FromSlash(DenialsFile)))
	if !strings.Contains(string(den), "offered with it: "+a.Items[1].Fact) || !strings.Contains(string(den), "claim denied (the question's): Denis · known · Yeltsin") {
		t.Fatalf("%s", den)
	}
}

// The seed's walk for "кто из моих друзей мог знать Ельцина" starts with
// the friends: with a friends table and no graph entity at all, step 1
// finds them in the table and step 2 the passage naming one of them, and
// the answering call is given both.
func TestResearchStartsWithTheFriends(t *testing.T) {
	b := newBox(t)
	answer := "Ваш друг Денис мог знать Бориса Ельцина: с 1992 по 1994 год он служил в Кремлёвском полку."
	cmd, dir := standIn(t, answer)
	withResearch(b, cmd)
	remember(t, b, `{"text":"у меня есть друг Денис и Миша"}`)
	remember(t, b, `{"text":"Денис с 1992 по 1994 год служил в Кремлёвском полку"}`)
	remember(t, b, `{"text":"Коля живёт в Казани"}`)
	if g, err := kgraph.Load(b.LongDir); err != nil || !g.Ask("кто из моих друзей мог знать Ельцина").Empty() {
		t.Fatalf("no graph entity: %v", err)
	}
	a := recall(t, b, `{"text":"кто из моих друзей мог знать Ельцина?","depth":"extreme","chain":true}`)
	if a.DepthUsed != LevelResearch || a.Answer != answer {
		t.Fatalf("research answers: %+v", a)
	}
	var people, graph *Step
	for i := range a.Chain {
		switch a.Chain[i].Store {
		case "research: people":
			people = &a.Chain[i]
		case "research: graph neighbours":
			graph = &a.Chain[i]
		}
	}
	if people == nil || len(people.Found) != 2 || !strings.Contains(people.Note, "2 people (friend) in kontakty: Денис, Миша") {
		t.Fatalf("step 1 finds the friends in the table, not Kolya: %+v", people)
	}
	if graph == nil {
		t.Fatalf("no graph step: %+v", a.Chain)
	}
	kremlin := 0
	for _, f := range graph.Found {
		if strings.Contains(f.Text, "Кремлёвском полку") {
			kremlin++
		}
	}
	if graph.Query != "Денис; Миша" || kremlin != 1 {
		t.Fatalf("step 2 takes each friend and finds the passage naming Denis: %+v", graph)
	}
	prompt, _ := os.ReadFile(filepath.Join(dir, "prompt.2"))
	if !strings.Contains(string(prompt), "kontakty.otnoshenie[Денис] = друг") || !strings.Contains(string(prompt), "служил в Кремлёвском полку") {
		t.Fatalf("the answering call is given the friends and the passage:\n%s", prompt)
	}
	// A question about no group of the speaker's people: step 1 says so.
	q := recall(t, b, `{"text":"could anyone have known the mayor of Kazan?","depth":"extreme","chain":true}`)
	for _, s := range q.Chain {
		if s.Store == "research: people" && (len(s.Found) != 0 || !strings.Contains(s.Note, "names no people")) {
			t.Fatalf("%+v", s)
		}
	}
}
