package blackbox

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// relearnedAnswers are researched questions put back as the relearn cycle
// writes them: the answer, the question, and the rephrasings a research
// walk's rephrasing call gives (whole questions in both languages, key
// terms).
var relearnedAnswers = []struct {
	about, q, answer string
	also             []string
}{
	{"Ельцина", "кто из моих друзей мог знать Ельцина?", "Ваш друг Денис мог знать Бориса Ельцина: с 1992 по 1994 год он служил в Кремлёвском полку.",
		[]string{"кто из моих друзей мог быть знаком с Борисом Ельциным", "which of my friends could have known Boris Yeltsin", "did any of my friends know Yeltsin", "Борис Ельцин", "Boris Yeltsin", "первый президент России"}},
	{"kestrel", "when does the kestrel backup run?", "The kestrel backup runs nightly at 03:00 from the old rack in hall B.",
		[]string{"at what time does the kestrel backup start", "во сколько запускается бэкап kestrel", "когда работает резервное копирование kestrel", "kestrel backup schedule"}},
	{"офис", "сколько стоила аренда офиса в мае?", "Аренда офиса в мае стоила 1200 евро (таблица расходов).",
		[]string{"how much was the office rent in May", "what did we pay for the office in May", "стоимость аренды офиса за май", "office rent May"}},
	{"billing", "who reviews the billing service pull requests?", "Olga reviews the billing service's pull requests; Ivan stands in when she is away.",
		[]string{"кто ревьюит пулреквесты сервиса биллинга", "who approves billing PRs", "billing service code review", "ревью биллинга"}},
}

// relearnHoldout are paraphrases written before the relearn lookup was
// run on them, in both languages: each wants the answer of one
// researched question above (its index), or -1 for none of them.
var relearnHoldout = []struct {
	q    string
	want int
}{
	{"напомни, пожалуйста, кто из моих друзей вообще мог знать Ельцина?", 0},
	{"hey, remind me please — which of my friends might have known Yeltsin?", 0},
	{"Could any of my friends have known Boris Yeltsin personally?", 0},
	{"what time does the kestrel backup kick off?", 1},
	{"напомни, во сколько запускается бэкап kestrel?", 1},
	{"how much did we pay for the office rent in May?", 2},
	{"сколько мы платили за аренду офиса в мае?", 2},
	{"who does code review for billing pull requests?", 3},
	{"кто у нас ревьюит пулреквесты биллинга?", 3},
	{"when was Yeltsin elected president?", -1},
	{"сколько стоит аренда склада в июне?", -1},
	{"who runs the kestrel migration?", -1},
	{"кто из моих друзей живёт в Казани?", -1},
}

// searchOnly hides the relearn lookup: level 2's search alone, by its
// coverage of the whole question.
type searchOnly struct{ TextSearcher }

// The relearn lookup's hit rate on held-out paraphrases, against level 2's
// search alone on the same memory: a paraphrase is a hit when the
// first relearned answer offered at depth standard (no model call) is the
// one it wants, or none when it wants none.
func TestRelearnParaphraseHoldout(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	box := newBox(t)
	box.Text = indexedText(t, box.Root, func() time.Time { return now })
	writeFile(t, filepath.Join(box.Root, ".claude", "memory_short", "2026-11-30.md"), "# 2026-11-30\n\nThe walrus census is run by Ada from the harbour office.\n")
	objects := make([]string, len(relearnedAnswers))
	for i, r := range relearnedAnswers {
		res, err := box.Relearn(context.Background(), RelearnRequest{Artifact: []byte(r.answer), ArtifactName: "answer.md",
			Summary: r.answer + "\n\nResearched for the question: " + r.q, About: r.about, AlsoAsked: r.also}, box.Text.(Indexer), now)
		if err != nil {
			t.Fatal(err)
		}
		objects[i] = res.Object
	}
	measure := func(name string) int {
		hits, none := 0, 0
		for _, c := range relearnHoldout {
			if c.want < 0 {
				none++
			}
			req, fates, err := ParseRecall(Raw{"text": []byte(`"` + c.q + `"`)}, box.Caps())
			if err != nil {
				t.Fatal(err)
			}
			a, err := box.Recall(context.Background(), req, fates, now)
			if err != nil {
				t.Fatal(err)
			}
			got := -1
			for _, it := range a.Items {
				for j, o := range objects {
					if it.Object == o && got < 0 {
						got = j
					}
				}
			}
			if got == c.want {
				hits++
			} else {
				t.Logf("%s: miss %q: got answer %d at level %d, want %d", name, c.q, got, a.DepthUsed, c.want)
			}
		}
		t.Logf("%s: %d of %d held-out paraphrases answered right without a model call (hit rate %.2f); the baseline that offers nothing: %d",
			name, hits, len(relearnHoldout), float64(hits)/float64(len(relearnHoldout)), none)
		return hits
	}
	found := measure("relearn lookup by the search's coverage")
	text := box.Text
	box.Text = searchOnly{text}
	scan := measure("level 2's search alone")
	box.Text = text
	if found < scan || found < len(relearnHoldout)*3/4 {
		t.Errorf("the lookup found %d (the search alone %d); the target named before the first run is 3 in 4 and no fewer than the search alone", found, scan)
	}
}
