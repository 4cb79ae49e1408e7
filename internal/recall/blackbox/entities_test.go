package blackbox

import (
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/recall/kgraph"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

// The case: "мог ли Миша знать Путина" shares most of its words
// with what is known about Denis and Yeltsin, and must not be answered by
// it; the same question about Denis and Yeltsin is.
func TestRecallDoesNotAnswerAboutTheWrongPerson(t *testing.T) {
	b := newBox(t)
	remember(t, b, `{"text":"Денис мог знать Ельцина лично: он служил в Кремле, в охране президента, в девяностые."}`)
	// most of the words are the passage's (лично, охране, президента,
	// Кремле, девяностые): only the people differ
	wrong := recall(t, b, `{"text":"мог ли Миша знать Путина лично по охране президента в Кремле в девяностые"}`)
	for _, it := range wrong.Items {
		if strings.Contains(it.Text, "Денис") {
			t.Fatalf("answered about Миша and Путин with %q (%+v)", it.Text, wrong.Report)
		}
	}
	if wrong.Kind != KindNone || !strings.Contains(wrong.Report[1].Note, "Миша") {
		t.Errorf("the level-2 report should say the passages name other people: %+v", wrong.Report)
	}
	right := recall(t, b, `{"text":"мог ли Денис знать Ельцина"}`)
	if right.DepthUsed != LevelText || len(right.Items) == 0 || !strings.Contains(right.Items[0].Text, "Денис") {
		t.Fatalf("the right people: %+v", right)
	}
	// one of two people named is not enough
	half := recall(t, b, `{"text":"мог ли Денис знать Путина лично в Кремле"}`)
	if len(half.Items) != 0 {
		t.Errorf("a passage naming Денис alone answered a question about Денис and Путин: %+v", half.Items)
	}
}

// A passage that names one entity answers for another the graph links
// to it: the Kremlin regiment guarded Yeltsin, so a note about Anna's
// service in the regiment answers whether she could have met him.
func TestEntityGateFollowsTheGraph(t *testing.T) {
	b := newBox(t)
	remember(t, b, `{"text":"Anna served in the Kremlin regiment from 1992 to 1994 and could have met the president."}`)
	q := `{"text":"could Anna have met Yeltsin?"}`
	if a := recall(t, b, q); len(a.Items) != 0 {
		t.Fatalf("without a link in the graph, the passage does not name Yeltsin: %+v", a.Items)
	}
	if _, err := kgraph.Link(b.LongDir, "Kremlin regiment", "Yeltsin", "guarded", "", t0, 0); err != nil {
		t.Fatal(err)
	}
	a := recall(t, b, q)
	if len(a.Items) == 0 || !strings.Contains(a.Items[0].Text, "Anna served") {
		t.Fatalf("the graph links the regiment to Yeltsin: %+v", a)
	}
}

// «кто мои друзья»: the plural is built on another root, and still finds
// the friend the note made a row of; so does the question in English.
func TestRecallFindsFriendsByTheSingular(t *testing.T) {
	b := newBox(t)
	remember(t, b, `{"text":"Мой друг Денис служил в Кремлёвском полку."}`)
	for _, q := range []string{"кто мои друзья", "who are my friends?"} {
		a := recall(t, b, `{"text":"`+q+`"}`)
		if a.DepthUsed != LevelTables || len(a.Items) != 1 || a.Items[0].Data.(tables.Cell).Key != "Денис" {
			t.Fatalf("%s: %+v", q, a)
		}
	}
}

// A conclusion is read off the answer when the question names one entity,
// and its entities meet across the two scripts.
func TestConclusionAndEntitiesAcrossScripts(t *testing.T) {
	for _, c := range []struct {
		q, a, want string
	}{
		{"кто из моих друзей мог знать Ельцина?", "Ваш друг Денис мог знать Бориса Ельцина: он служил в Кремлёвском полку.", "денис,ельцин"},
		{"which of my friends could have known Yeltsin?", "Your friend Denis may have known Boris Yeltsin.", "deni,yeltsin"},
		{"Could Denis have known Yeltsin?", "Yes, through the Kremlin regiment.", "deni,yeltsin"},
		{"who could have known the president?", "According to the notes, Denis could have met Yeltsin.", "deni,yeltsin"},
		{"кто из моих друзей мог знать Ельцина?", "Никто.", ""},
	} {
		got := ""
		if cl := conclusionOf(c.q, c.a); cl != nil {
			got = strings.Join(cl.Entities, ",")
		}
		if got != c.want {
			t.Errorf("%q / %q: %q, want %q", c.q, c.a, got, c.want)
		}
	}
	for _, p := range [][2]string{{"денис", "deni"}, {"ельцин", "yeltsin"}, {"борис", "bori"}, {"кремл", "kremlin"}} {
		if !sameEntity(p[0], p[1]) {
			t.Errorf("%s and %s are one entity", p[0], p[1])
		}
	}
	for _, p := range [][2]string{{"денис", "dan"}, {"миш", "michael"}, {"ельцин", "elton"}, {"deni", "yeltsin"}} {
		if sameEntity(p[0], p[1]) {
			t.Errorf("%s and %s are two entities", p[0], p[1])
		}
	}
}
