package blackbox

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

func TestNominativeOfAName(t *testing.T) {
	for g, n := range map[string]string{"Димы": "Дима", "Миши": "Миша", "Юли": "Юля", "Ольги": "Ольга", "Дениса": "Денис", "Андрея": "Андрей", "Игоря": "Игорь", "Ильи": "Илья", "Юлии": "Юлия"} {
		if got := nominative(g); got != n {
			t.Errorf("nominative(%s) = %s, want %s", g, got, n)
		}
	}
}

func TestRememberShapesItsTables(t *testing.T) {
	b := newBox(t)
	team := remember(t, b, `{"text":"у меня в команде работает Юля — продменеджер, Дима — менеджер"}`)
	if strings.Join(team.TablesCreated, ",") != "komanda" || strings.Join(team.KindsCreated, ",") != "komanda.rol" ||
		strings.Join(team.NewTablesWithRows, ",") != "komanda" || team.Shape == nil || team.Shape.Rule != "team_list" || len(team.Stores) != 3 {
		t.Fatalf("the team phrase lands in a table: %+v", team)
	}
	a := recall(t, b, `{"text":"какая роль у Юли в команде?"}`)
	if a.DepthUsed != 1 || a.Kind != KindAffirmative || a.Items[0].Data.(tables.Cell).Value != "продменеджер" {
		t.Fatalf("recall the role: %+v", a)
	}
	// Дима and Миша: a table of contacts with one kind and two rows; then
	// a phone is a new kind (a column), not a new table.
	friends := remember(t, b, `{"text":"у меня есть друг Дима и Миша"}`)
	if strings.Join(friends.TablesCreated, ",") != "kontakty" || len(friends.Stores) != 3 {
		t.Fatalf("friends: %+v", friends)
	}
	phone := remember(t, b, `{"text":"телефон Димы 111"}`)
	if len(phone.TablesCreated) != 0 || strings.Join(phone.KindsCreated, ",") != "kontakty.telefon" || !strings.Contains(phone.Stores[1].What, "kontakty.telefon[Дима] = 111") {
		t.Fatalf("a phone is a new column of the same row: %+v", phone)
	}
	remember(t, b, `{"text":"номер телефона Миши: 222"}`)
	d := recall(t, b, `{"text":"какой телефон у Димы?"}`)
	m := recall(t, b, `{"text":"телефон Миши"}`)
	if d.DepthUsed != 1 || len(d.Items) != 1 || d.Items[0].Data.(tables.Cell).Value != "111" || m.Items[0].Data.(tables.Cell).Value != "222" {
		t.Fatalf("phones: %+v / %+v", d, m)
	}
	ts, _ := b.Tables.Describe()
	for _, ti := range ts {
		if ti.Name == "kontakty" && (ti.Rows != 2 || strings.Join(ti.Kinds, ",") != "otnoshenie,telefon") {
			t.Fatalf("two rows, two kinds: %+v", ti)
		}
	}
	// An English statement of the same kind goes to the same table, its
	// kind named as the table names its kinds: no contacts beside kontakty.
	en := remember(t, b, `{"text":"Denis was born in Kazan"}`)
	if len(en.TablesCreated) != 0 || strings.Join(en.KindsCreated, ",") != "kontakty.rodilsya" {
		t.Fatalf("%+v", en)
	}
	if a := recall(t, b, `{"text":"where was Denis born?"}`); a.DepthUsed != 1 || a.Items[0].Data.(tables.Cell).Value != "Kazan" {
		t.Fatalf("born: %+v", a)
	}
	// No rule reads it: a text record, and the answer says so.
	plain := remember(t, b, `{"text":"Денис служил в Кремлёвском полку с 1992 по 1994"}`)
	if len(plain.Stores) != 1 || plain.Shape == nil || plain.Shape.Rule != "none" {
		t.Fatalf("fallback: %+v", plain)
	}
	// The caller's table wins over the rules.
	mine := remember(t, b, `{"text":"телефон Димы 999","table":"friends","key":"Dima","kind":"phone","value":"999"}`)
	if mine.Shape != nil || mine.Stores[1].Table != "friends" {
		t.Fatalf("explicit table wins: %+v", mine)
	}
}

func TestClaimsReadTheEntitiesWhateverTheWords(t *testing.T) {
	for _, qs := range [][]string{
		{"Could my friend Denis have known Yeltsin?", "Is it possible that Denis knew Yeltsin, the president?", "Did Boris Yeltsin ever meet Denis?", "Yeltsin's friend Denis?"},
		{"Мог ли мой друг Денис знать Ельцина?", "Был ли Денис знаком с Ельциным?", "Возможно, Денис видел Ельцина"},
	} {
		want := extractClaim(qs[0])
		if !want.Usable() {
			t.Fatalf("%q: %+v", qs[0], want)
		}
		for _, q := range qs[1:] {
			if got := extractClaim(q); !want.covers(got) || !got.covers(want) {
				t.Errorf("%q: %+v, want the entities of %+v", q, got, want)
			}
		}
	}
	for _, q := range []string{"When did Denis serve in the regiment?", "what is Dima's phone", "How much did we earn May to August?", "Сколько мы заработали в Мае–Августе?"} {
		if c := extractClaim(q); c.Usable() {
			t.Errorf("%q names fewer than two entities: %+v", q, c)
		}
	}
	if c := extractClaim("Could Denis have known Yeltsin?"); c.Subject != "Denis" || c.Object != "Yeltsin" || c.Relation != "known" {
		t.Errorf("subject, relation, object: %+v", c)
	}
}

// The seed's scope: a shaped row holds where it was said; Madrid is not
// Barcelona, and neither is Spain.
func TestShapedRowsKeepTheirScope(t *testing.T) {
	b := newBox(t)
	remember(t, b, `{"text":"Misha's phone is 600 111 222","geo":"Madrid"}`)
	remember(t, b, `{"text":"Misha's phone is 600 333 444","geo":"Barcelona"}`)
	dep := recall(t, b, `{"text":"what is Misha's phone?"}`)
	if dep.Kind != KindParamDep || len(dep.Missing) != 1 || strings.Join(dep.Missing[0].Values, ",") != "Barcelona,Madrid" || len(dep.Items) != 2 {
		t.Fatalf("the answer depends on the place: %+v", dep)
	}
	mad := recall(t, b, `{"text":"what is Misha's phone?","geo":"Madrid"}`)
	if mad.Kind != KindAffirmative || len(mad.Items) != 1 || mad.Items[0].Data.(tables.Cell).Value != "600 111 222" {
		t.Fatalf("Madrid: %+v", mad)
	}
	if spain := recall(t, b, `{"text":"what is Misha's phone?","geo":"Spain"}`); spain.Kind != KindNone || spain.Report[0].OutScope != 2 {
		t.Fatalf("no inheritance: %+v", spain)
	}
	// A breakdown honours the place too.
	for _, r := range []string{`"geo":"Madrid","calendar":"2026-06-01","value":"100"`, `"geo":"Barcelona","calendar":"2026-06-02","value":"50"`, `"geo":"Madrid","calendar":"2026-07-01","value":"25"`} {
		remember(t, b, `{"text":"taxi ride","table":"expenses","key":"taxi","kind":"amount",`+r+`}`)
	}
	a := recall(t, b, `{"text":"how much did we spend on taxi in June–July 2026?","geo":"Madrid"}`)
	bd, ok := a.Items[0].Data.(*Breakdown)
	if !ok || bd.Total != "125" || bd.Rows != 2 || bd.LeftOut != 1 || a.Kind != KindAffirmative {
		t.Fatalf("Madrid's expenses only: %+v", a)
	}
}

// The seed's measure on the phrasings, with the store's hands: a
// relation and an attribute are columns of the person's row; "теперь"
// replaces a value in place with its time; a second value said without
// it makes the column a list, the earlier value moving with its own time.
func TestRememberGrowsByTheSeedsMeasure(t *testing.T) {
	b := newBox(t)
	hands := func(a *RememberAnswer) string {
		var hs []string
		for _, u := range a.Shape.Units {
			hs = append(hs, u.Table+"."+u.Kind+"["+u.Key+"]:"+u.Hand)
		}
		return strings.Join(hs, " ")
	}
	olya := remember(t, b, `{"text":"моя сестра Оля живёт в Казани"}`)
	if olya.Shape.Rule != "relation+lives" || strings.Join(olya.TablesCreated, ",") != "kontakty" ||
		strings.Join(olya.KindsCreated, ",") != "kontakty.otnoshenie,kontakty.zhivet" || hands(olya) != "kontakty.otnoshenie[Оля]:new_kind kontakty.zhivet[Оля]:new_kind" {
		t.Fatalf("a relation and an attribute, two columns of one row: %+v %s", olya, hands(olya))
	}
	if a := recall(t, b, `{"text":"где живёт Оля?"}`); a.DepthUsed != 1 || len(a.Items) != 1 || a.Items[0].Data.(tables.Cell).Value != "в Казани" {
		t.Fatalf("where Olya lives, at level 1: %+v", a)
	}
	if again := remember(t, b, `{"text":"Оля живёт в Казани"}`); hands(again) != "kontakty.zhivet[Оля]:known" || len(again.KindsCreated) != 0 {
		t.Fatalf("the same value again changes nothing: %s", hands(again))
	}
	// A second value, said without "теперь": both are kept, each with its time.
	later := t0.Add(48 * time.Hour)
	req, fates, _ := ParseRemember(raw(t, `{"text":"Оля живёт в Москве"}`))
	moved, err := b.Remember(context.Background(), req, fates, later)
	if err != nil || hands(moved) != "kontakty_zhivet.value[Оля]:promote" || strings.Join(moved.TablesCreated, ",") != "kontakty_zhivet" ||
		!strings.Contains(moved.Stores[1].What, "the earlier в Казани moved with its own time, 2026-11-30T10:00Z") {
		t.Fatalf("a second value promotes the column to a list: %+v", moved)
	}
	both := recall(t, b, `{"text":"где живёт Оля?"}`)
	if both.DepthUsed != 1 || len(both.Items) != 2 {
		t.Fatalf("both values answer, each with its time: %+v", both)
	}
	if c0, c1 := both.Items[0].Data.(tables.Cell), both.Items[1].Data.(tables.Cell); c0.Value != "в Казани" || !c0.At.Equal(t0) || c1.Value != "в Москве" || !c1.At.Equal(later) {
		t.Fatalf("the earlier value kept its own time: %+v %+v", c0, c1)
	}

	// The team is a table of its own; "Дима теперь тимлид" updates his
	// role there in place, naming what it replaced.
	remember(t, b, `{"text":"у меня в команде работает Юля — продменеджер, Дима — менеджер"}`)
	lead := remember(t, b, `{"text":"Дима теперь тимлид"}`)
	if hands(lead) != "komanda.rol[Дима]:update" || !strings.Contains(lead.Stores[1].What, "updated in place: komanda.rol[Дима] = тимлид (was менеджер") {
		t.Fatalf("an update of the existing value: %+v", lead)
	}
	if a := recall(t, b, `{"text":"какая роль у Димы в команде?"}`); len(a.Items) != 1 || a.Items[0].Data.(tables.Cell).Value != "тимлид" {
		t.Fatalf("the role is the new one: %+v", a)
	}

	ann := remember(t, b, `{"text":"my manager is Ann, she lives in Porto"}`)
	if ann.Shape.Rule != "relation+lives" || hands(ann) != "kontakty.otnoshenie[Ann]:write kontakty.zhivet[Ann]:write" || len(ann.TablesCreated) != 0 {
		t.Fatalf("the pronoun takes the clause before it: %+v", ann.Shape)
	}
	if a := recall(t, b, `{"text":"where does Ann live?"}`); a.DepthUsed != 1 || a.Items[0].Data.(tables.Cell).Value != "Porto" {
		t.Fatalf("where Ann lives: %+v", a)
	}
	// Part of a phrase read, the rest kept in the record and named.
	denis := remember(t, b, `{"text":"мой друг Денис с 1992 по 1994 год служил в Кремле"}`)
	if hands(denis) != "kontakty.otnoshenie[Денис]:write" || len(denis.Shape.Unread) != 1 || denis.Stores[0].Store != "memory_text" {
		t.Fatalf("the relation is read, the service stays in the record: %+v", denis.Shape)
	}
}

// Tables an older memhook split by the statement's language are merged
// by the next phrase shaped: one table of the kind, every value moved
// with its own time, a different value of the same person kept as a list,
// and the journal alone rebuilds the same tables.
func TestSplitTablesMergeIntoOne(t *testing.T) {
	b := newBox(t)
	old := t0.Add(-72 * time.Hour)
	for _, r := range []string{
		`{"text":"x","table":"kontakty","key":"Оля","kind":"otnoshenie","value":"сестра"}`,
		`{"text":"x","table":"kontakty","key":"Оля","kind":"zhivet","value":"в Казани"}`,
		`{"text":"x","table":"kontakty","key":"Петя","kind":"zhivet","value":"в Москве"}`,
		`{"text":"x","table":"kontakty","key":"Дима","kind":"otnoshenie","value":"друг"}`,
		`{"text":"x","table":"contacts","key":"Tom","kind":"relation","value":"friend"}`,
		`{"text":"x","table":"contacts","key":"Tom","kind":"lives","value":"Leeds"}`,
		`{"text":"x","table":"contacts","key":"Оля","kind":"lives","value":"Kazan"}`,
	} {
		req, fates, err := ParseRemember(raw(t, r))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Remember(context.Background(), req, fates, old); err != nil {
			t.Fatal(err)
		}
	}
	a := remember(t, b, `{"text":"Вера живёт в Туле"}`)
	if a.Shape == nil || len(a.Shape.Merged) != 1 || !strings.Contains(a.Shape.Merged[0], "contacts merged into kontakty") ||
		!strings.Contains(a.Shape.Merged[0], "lives→zhivet") || !strings.Contains(a.Shape.Merged[0], "relation→otnoshenie") {
		t.Fatalf("the split tables are merged and the answer says how: %+v", a.Shape)
	}
	names := func() string {
		ts, _ := b.Tables.Tables()
		var out []string
		for n := range ts {
			out = append(out, n)
		}
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	if got := names(); got != "kontakty,kontakty_zhivet" {
		t.Fatalf("one table of the kind (and Оля's two places as a list): %s", got)
	}
	tom := recall(t, b, `{"text":"where does Tom live?"}`)
	if tom.DepthUsed != LevelTables || len(tom.Items) != 1 {
		t.Fatalf("Tom's place moved: %+v", tom)
	}
	if c := tom.Items[0].Data.(tables.Cell); c.Table != "kontakty" || c.Kind != "zhivet" || c.Value != "Leeds" || !c.At.Equal(old) {
		t.Fatalf("with its own time: %+v", c)
	}
	olya := recall(t, b, `{"text":"где живёт Оля?"}`)
	if len(olya.Items) != 2 {
		t.Fatalf("both of Оля's places are kept: %+v", olya.Items)
	}
	// The journal is the truth: a cache rebuilt from it holds the same.
	before, _ := b.Tables.Describe()
	b.Tables.Close()
	st, err := tables.Open(filepath.Join(b.LongDir, TablesDir, "journal.jsonl"), filepath.Join(t.TempDir(), "tables.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	b.Tables = st
	after, _ := st.Describe()
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Fatalf("replayed from the journal:\n%+v\n%+v", before, after)
	}
	if again := remember(t, b, `{"text":"Вера живёт в Туле"}`); len(again.Shape.Merged) != 0 {
		t.Fatalf("nothing left to merge: %+v", again.Shape)
	}
}

// A table a caller named after a group ("Команда архитектора") holds the
// group's people too.
func TestGroupTableNamedAfterTheGroup(t *testing.T) {
	b := newBox(t)
	remember(t, b, `{"text":"x","table":"Команда архитектора","key":"Юля","kind":"роль","value":"продменеджер"}`)
	for _, q := range []string{"кто в моей команде?", "who is on my team?"} {
		a := recall(t, b, `{"text":"`+q+`"}`)
		if a.DepthUsed != LevelTables || len(a.Items) != 1 || a.Items[0].Data.(tables.Cell).Table != "komanda_arkhitektora" {
			t.Fatalf("%s: %+v", q, a)
		}
	}
}
