package blackbox

import (
	"context"
	"strings"
	"testing"
)

// denialHoldout are questions written before the conclusion-denial was
// run on them, in both languages, asked after the person denied "Денис
// мог знать Ельцина": withheld wants no item carrying that conclusion and
// an answer of none; otherwise an answer naming keep.
var denialHoldout = []struct {
	q        string
	withheld bool
	keep     string
}{
	{"кто из моих друзей мог знать Ельцина?", true, ""},
	{"which of my friends could have known Yeltsin?", true, ""},
	{"мог ли Денис быть знаком с Борисом Ельциным?", true, ""},
	{"Did Boris Yeltsin ever meet Denis?", true, ""},
	{"was Denis acquainted with Yeltsin?", true, ""},
	{"когда Денис служил в Кремлёвском полку?", false, "1992"},
	{"where did Tom serve?", false, "navy"},
	{"could Tom have met the admiral?", false, "admiral"},
}

// After a denial, the conclusion stays withheld for every wording and
// every summary that carries it, and nothing else is touched.
func TestDenialHoldout(t *testing.T) {
	b := newBox(t)
	remember(t, b, `{"text":"у меня есть друг Денис"}`)
	remember(t, b, `{"text":"Денис с 1992 по 1994 год служил в Кремлёвском полку"}`)
	remember(t, b, `{"text":"Tom served in the navy from 2001 to 2005."}`)
	for _, s := range []struct{ about, text string }{
		{"Ельцина", "Ваш друг Денис мог знать Бориса Ельцина: с 1992 по 1994 год он служил в Кремлёвском полку.\n\nResearched for the question: кто из моих друзей мог знать Ельцина?"},
		{"Yeltsin", "Your friend Denis may have known Boris Yeltsin: he served in the Kremlin regiment.\n\nResearched for the question: which of my friends could have known Yeltsin?"},
		{"Tom", "Tom could have met the admiral during his navy years.\n\nResearched for the question: could Tom have met the admiral?"},
	} {
		if _, err := b.Relearn(context.Background(), RelearnRequest{Artifact: []byte(s.text), ArtifactName: "a.md", Summary: s.text, About: s.about}, nil, t0); err != nil {
			t.Fatal(err)
		}
	}
	first := recall(t, b, `{"text":"кто из моих друзей мог знать Ельцина?"}`)
	if len(first.Items) == 0 || first.Items[0].Object == "" {
		t.Fatalf("the summary answers before the denial: %+v", first)
	}
	if _, err := b.Deny(first.Items[0].ID, "Denis never saw him", t0); err != nil {
		t.Fatal(err)
	}
	hits := 0
	for _, c := range denialHoldout {
		a := recall(t, b, `{"text":"`+c.q+`"}`)
		carried := false
		for _, it := range a.Items {
			if strings.Contains(it.Text, "мог знать") || strings.Contains(it.Text, "may have known") {
				carried = true
			}
		}
		ok := !carried && (c.withheld && a.Kind == KindNone || !c.withheld && strings.Contains(strings.ToLower(answerText(a)), c.keep))
		if ok {
			hits++
		} else {
			t.Errorf("%q: withheld %v, kind %s, answer %q", c.q, c.withheld, a.Kind, answerText(a))
		}
	}
	t.Logf("held-out questions after a denial: %d of %d right (the conclusion withheld in every wording, the rest answered)", hits, len(denialHoldout))
}
