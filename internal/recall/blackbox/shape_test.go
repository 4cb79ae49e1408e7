package blackbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

func TestShapeRules(t *testing.T) {
	keyOf := func(_, g string) string { return nominative(g) }
	for in, want := range map[string]string{
		"у меня в команде работает Юля — продменеджер, Дима — менеджер": "team_list: команда.роль[Юля]=продменеджер; команда.роль[Дима]=менеджер",
		"In my team: Yulia — product manager, Dima is the manager.":     "team_list: team.role[Yulia]=product manager; team.role[Dima]=manager",
		"у меня есть друг Дима и Миша":                                  "friends: контакты.отношение[Дима]=друг; контакты.отношение[Миша]=друг",
		"I have friends Dima, Misha and Yulia":                          "friends: contacts.relation[Dima]=friend; contacts.relation[Misha]=friend; contacts.relation[Yulia]=friend",
		"телефон Димы 111-22-33":                                        "contact: контакты.телефон[Дима]=111-22-33",
		"номер телефона Миши: +7 999 123 45 67":                         "contact: контакты.телефон[Миша]=+7 999 123 45 67",
		"у Юли телефон 555":                                             "contact: контакты.телефон[Юля]=555",
		"телефон Дениса — 777":                                          "contact: контакты.телефон[Денис]=777",
		"The phone of Dima is 111":                                      "contact: contacts.phone[Dima]=111",
		"Misha's phone number is +34 600 000 000":                       "contact: contacts.phone[Misha]=+34 600 000 000",
		"Dima's email is dima@example.com":                              "contact: contacts.email[Dima]=dima@example.com",
		"телефоны друзей: Дима — 111-22-33, Миша — +7 999 000 00 00":    "contact_list: контакты.телефон[Дима]=111-22-33; контакты.телефон[Миша]=+7 999 000 00 00",
		"Phone numbers of my friends: Dima — 111, Misha — 222":          "contact_list: contacts.phone[Dima]=111; contacts.phone[Misha]=222",
		"телефоны друзей: Дима — 111, Миша — не помню":                  "",
		"Denis was born in Kazan":                                       "born: contacts.born[Denis]=Kazan",
		"Денис родился в Казани":                                        "born: контакты.родился[Денис]=в Казани",
		// Not readable whole: a text record, never a guessed table.
		"у меня в команде работает Юля — продменеджер, и ещё кто-то": "",
		"The phone of Dima is broken":                     "",
		"в команде все устали":                            "",
		"Dima thinks the deploy is broken, Misha — not":   "",
		"Денис служил в Кремлёвском полку с 1992 по 1994": "",
		"I have friends everywhere":                       "",
		"Юля — продменеджер, Дима — менеджер":             "",
	} {
		rule, vs := shape(in, keyOf)
		var parts []string
		for _, v := range vs {
			parts = append(parts, fmt.Sprintf("%s.%s[%s]=%s", v.Table, v.Kind, v.Key, v.Value))
		}
		got := ""
		if rule != "" {
			got = rule + ": " + strings.Join(parts, "; ")
		}
		if got != want {
			t.Errorf("%q:\n got %q\nwant %q", in, got, want)
		}
	}
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
	en := remember(t, b, `{"text":"Denis was born in Kazan"}`)
	if strings.Join(en.KindsCreated, ",") != "contacts.born" {
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
