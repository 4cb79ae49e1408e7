package blackbox

import (
	"strings"
	"testing"
)

// holdout are phrasings written before the rules were run on them and
// never used to tune them: the shaping grammar's measure on material it
// was not written for. Each wants the units a careful reader would take
// (in the grammar's conventions: the people table, Russian places as
// said, roles in the nominative, "!" for an update); "" wants none.
var holdout = []struct{ in, want string }{
	{"мой брат Костя живёт в Новосибирске", "relation: контакты.отношение[Костя]=брат; lives: контакты.живёт[Костя]=в Новосибирске"},
	{"Костя работает программистом", "role: контакты.роль[Костя]=программист"},
	{"моя подруга Лена переехала в Сочи", "relation: контакты.отношение[Лена]=подруга; lives: контакты.живёт[Лена]=в Сочи!"},
	{"Лена теперь работает в Сбере", "works_at: контакты.работает[Лена]=в Сбере!"},
	{"у меня есть коллеги Петя и Вася", "relation_list: контакты.отношение[Петя]=коллега; relation_list: контакты.отношение[Вася]=коллега"},
	{"в отделе работают Света — аналитик, Гоша — тестировщик", "team_list: отдел.роль[Света]=аналитик; team_list: отдел.роль[Гоша]=тестировщик"},
	{"мой сосед Игорь родился в Минске", "relation: контакты.отношение[Игорь]=сосед; born: контакты.родился[Игорь]=в Минске"},
	{"Наташа — моя жена", "relation: контакты.отношение[Наташа]=жена"},
	{"у меня дочь — Аня", "relation_list: контакты.отношение[Аня]=дочь"},
	{"Аня живёт в Праге, она работает врачом", "lives: контакты.живёт[Аня]=в Праге; role: контакты.роль[Аня]=врач"},
	{"мы с Машей ходили в кино", ""},
	{"Вася не любит кофе", ""},
	{"завтра созвон с Димой в 10", ""},
	{"мой начальник Олег Петрович теперь в отпуске", "relation: контакты.отношение[Олег Петрович]=начальник"},
	{"my brother Tom lives in Leeds", "relation: contacts.relation[Tom]=brother; lives: contacts.lives[Tom]=Leeds"},
	{"Sarah is my colleague, she works as a data analyst", "relation: contacts.relation[Sarah]=colleague; role: contacts.role[Sarah]=data analyst"},
	{"Tom moved to Berlin", "lives: contacts.lives[Tom]=Berlin!"},
	{"Sarah now works at Shopify", "works_at: contacts.works_at[Sarah]=Shopify!"},
	{"my friends are Kate and Joe", "relation_list: contacts.relation[Kate]=friend; relation_list: contacts.relation[Joe]=friend"},
	{"in our department: Lucy — designer, Mark — QA engineer", "team_list: department.role[Lucy]=designer; team_list: department.role[Mark]=QA engineer"},
	{"Joe is now the head of sales", "role: contacts.role[Joe]=head of sales!"},
	{"my wife Emma was born in Dublin", "relation: contacts.relation[Emma]=wife; born: contacts.born[Emma]=Dublin"},
	{"Emma's email is emma@example.org", "contact: contacts.email[Emma]=emma@example.org"},
	{"we shipped the release on Friday", ""},
	{"Mark thinks the plan is fine", ""},
	{"My boss is Linda and she lives in Austin", "relation: contacts.relation[Linda]=boss; lives: contacts.lives[Linda]=Austin"},
	{"у Кости телефон +7 913 555 12 34", "contact: контакты.телефон[Костя]=+7 913 555 12 34"},
	{"Петя стал тимлидом", "role: контакты.роль[Петя]=тимлид!"},
	{"I have a sister Anna and a brother Max", "relation_list: contacts.relation[Anna]=sister; relation: contacts.relation[Max]=brother"},
	{"Dima, my manager, lives in Lisbon", "relation: contacts.relation[Dima]=manager; lives: contacts.lives[Dima]=Lisbon"},
	{"My name is Alex", ""},
	{"моя кошка Мурка любит рыбу", "relation: контакты.отношение[Мурка]=кошка"},
	{"Оля теперь живёт в Москве", "lives: контакты.живёт[Оля]=в Москве!"},
	{"the team has Ann — PM, Bob — dev", "team_list: team.role[Ann]=PM; team_list: team.role[Bob]=dev"},
}

// holdoutGroups are phrasings of the kinds issue 46 named (a group said
// with a count, an appositive, a second relation in a list, a group
// without a possessive), in both languages, written before the rules for
// them were: the three misses above were what the rules were written
// from, so these are the measure of what they learned.
var holdoutGroups = []struct{ in, want string }{
	{"в группе четверо: Лёша, Гена, Таня и Зоя", "team_list: группа.участник[Лёша]=да; team_list: группа.участник[Гена]=да; team_list: группа.участник[Таня]=да; team_list: группа.участник[Зоя]=да"},
	{"в семье трое: Саша, Маша и Гриша", "team_list: семья.участник[Саша]=да; team_list: семья.участник[Маша]=да; team_list: семья.участник[Гриша]=да"},
	{"в команде двое новых: Рита и Стас", "team_list: команда.участник[Рита]=да; team_list: команда.участник[Стас]=да"},
	{"our family has three people: Mum, Dad and Leo", "team_list: family.member[Mum]=yes; team_list: family.member[Dad]=yes; team_list: family.member[Leo]=yes"},
	{"the team has Zoe — designer and Ian — backend developer", "team_list: team.role[Zoe]=designer; team_list: team.role[Ian]=backend developer"},
	{"my department: Olga — lawyer, Petr — accountant", "team_list: department.role[Olga]=lawyer; team_list: department.role[Petr]=accountant"},
	{"Катя, моя коллега, живёт в Самаре", "relation: контакты.отношение[Катя]=коллега; lives: контакты.живёт[Катя]=в Самаре"},
	{"Маша, наша соседка, переехала в Минск", "relation: контакты.отношение[Маша]=соседка; lives: контакты.живёт[Маша]=в Минск!"},
	{"Ben, my neighbour, works at IKEA", "relation: contacts.relation[Ben]=neighbour; works_at: contacts.works_at[Ben]=IKEA"},
	{"у меня есть брат Олег и сестра Ира", "relation_list: контакты.отношение[Олег]=брат; relation: контакты.отношение[Ира]=сестра"},
	{"I have a son Sam and a daughter Mia", "relation_list: contacts.relation[Sam]=son; relation: contacts.relation[Mia]=daughter"},
	{"у меня две подруги — Вика и Соня", "relation_list: контакты.отношение[Вика]=подруга; relation_list: контакты.отношение[Соня]=подруга"},
	{"Игорь теперь живёт в Туле", "lives: контакты.живёт[Игорь]=в Туле!"},
	{"Lena's phone is 8 800 555 35 35", "contact: contacts.phone[Lena]=8 800 555 35 35"},
	{"в отделе пятеро", ""},
	{"we hired Tom yesterday", ""},
	{"the team has shipped the release", ""},
	{"Дима, как всегда, опоздал", ""},
}

// The grammar's hit rate on the held-out phrasings: a phrase is a hit
// when every unit it wants is read and nothing else. A unit read that the
// phrase does not hold is a false one; the grammar's promise is that it
// does not guess, so precision is held to a target named before the first
// run (0.9). Precision alone holds for a grammar that reads nothing, so
// the recall of units is held to the same target and the hit rate must
// beat the baseline that reads nothing; both are printed.
func TestShapeHoldout(t *testing.T) {
	measureShape(t, "held-out phrasings", holdout)
	measureShape(t, "held-out group phrasings (issue 46)", holdoutGroups)
}

func measureShape(t *testing.T, name string, holdout []struct{ in, want string }) {
	hits, wantUnits, gotUnits, rightUnits, none := 0, 0, 0, 0, 0
	for _, c := range holdout {
		if c.want == "" {
			none++ // the baseline that reads nothing gets these right
		}
		units, _ := shape(c.in)
		got := formatUnits(units)
		if got == c.want {
			hits++
		} else {
			t.Logf("miss %q:\n   got %q\n  want %q", c.in, got, c.want)
		}
		want := splitUnits(c.want)
		have := splitUnits(got)
		wantUnits += len(want)
		gotUnits += len(have)
		for _, u := range have {
			if contains(want, u) {
				rightUnits++
			}
		}
	}
	precision := 1.0
	if gotUnits > 0 {
		precision = float64(rightUnits) / float64(gotUnits)
	}
	t.Logf("%s: %d of %d read exactly (hit rate %.2f); units: %d of %d wanted read (recall %.2f), %d of %d read right (precision %.2f)",
		name, hits, len(holdout), float64(hits)/float64(len(holdout)), rightUnits, wantUnits, float64(rightUnits)/float64(wantUnits), rightUnits, gotUnits, precision)
	t.Logf("%s, baseline, every phrase a text record only: %d of %d (hit rate %.2f), units recall 0", name, none, len(holdout), float64(none)/float64(len(holdout)))
	if precision < 0.9 {
		t.Errorf("the grammar read %d units the held-out phrasings do not hold (precision %.2f, target 0.9)", gotUnits-rightUnits, precision)
	}
	if recall := float64(rightUnits) / float64(wantUnits); recall < 0.9 {
		t.Errorf("the grammar read %d of the %d units the held-out phrasings hold (recall %.2f, target 0.9)", rightUnits, wantUnits, recall)
	}
	if hits <= none {
		t.Errorf("the grammar read %d of %d phrasings exactly, no better than reading nothing (%d)", hits, len(holdout), none)
	}
}

func splitUnits(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "; ")
}
