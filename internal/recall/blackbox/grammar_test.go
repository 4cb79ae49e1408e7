package blackbox

import (
	"fmt"
	"strings"
	"testing"
)

func formatUnits(units []Shaped) string {
	var parts []string
	for _, u := range units {
		key := u.Key
		if u.Genitive {
			key = nominative(key) // the row it reaches when the table holds no such name yet
		}
		s := fmt.Sprintf("%s: %s.%s[%s]=%s", u.Rule, u.Table, u.Kind, key, u.Value)
		if u.Update {
			s += "!"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// The grammar on the seed's examples, the new phrasings and the
// phrasings it was written from; TestShapeHoldout measures it on others.
// "!" marks an update; "" wants the phrase left a text record.
func TestShapeGrammar(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// The seed's measure.
		{"у меня есть друг Дима и Миша", "relation_list: контакты.отношение[Дима]=друг; relation_list: контакты.отношение[Миша]=друг"},
		{"у меня в команде работает Юля — продменеджер, Дима — менеджер", "team_list: команда.роль[Юля]=продменеджер; team_list: команда.роль[Дима]=менеджер"},
		// The phrasings.
		{"моя сестра Оля живёт в Казани", "relation: контакты.отношение[Оля]=сестра; lives: контакты.живёт[Оля]=в Казани"},
		{"Дима теперь тимлид", "role: контакты.роль[Дима]=тимлид!"},
		{"my manager is Ann, she lives in Porto", "relation: contacts.relation[Ann]=manager; lives: contacts.lives[Ann]=Porto"},
		{"friends Дима and Миша", "relation_list: contacts.relation[Дима]=friend; relation_list: contacts.relation[Миша]=friend"},
		{"в команде работают Юля, Дима и Миша", "team_list: команда.участник[Юля]=да; team_list: команда.участник[Дима]=да; team_list: команда.участник[Миша]=да"},
		{"у меня сестра — Оля", "relation_list: контакты.отношение[Оля]=сестра"},
		{"в отделе трое: Оля, Катя и Вера", "team_list: отдел.участник[Оля]=да; team_list: отдел.участник[Катя]=да; team_list: отдел.участник[Вера]=да"},
		{"Dima, my manager, lives in Lisbon", "relation: contacts.relation[Dima]=manager; lives: contacts.lives[Dima]=Lisbon"},
		{"Ann works as a designer", "role: contacts.role[Ann]=designer"},
		{"Дима работает дизайнером", "role: контакты.роль[Дима]=дизайнер"},
		// Phrasings the rules were written from.
		{"In my team: Yulia — product manager, Dima is the manager.", "team_list: team.role[Yulia]=product manager; team_list: team.role[Dima]=manager"},
		{"I have friends Dima, Misha and Yulia", "relation_list: contacts.relation[Dima]=friend; relation_list: contacts.relation[Misha]=friend; relation_list: contacts.relation[Yulia]=friend"},
		{"телефон Димы 111-22-33", "contact: контакты.телефон[Дима]=111-22-33"},
		{"номер телефона Миши: +7 999 123 45 67", "contact: контакты.телефон[Миша]=+7 999 123 45 67"},
		{"у Юли телефон 555", "contact: контакты.телефон[Юля]=555"},
		{"The phone of Dima is 111", "contact: contacts.phone[Dima]=111"},
		{"Misha's phone number is +34 600 000 000", "contact: contacts.phone[Misha]=+34 600 000 000"},
		{"Dima's email is dima@example.com", "contact: contacts.email[Dima]=dima@example.com"},
		{"телефоны друзей: Дима — 111-22-33, Миша — +7 999 000 00 00", "contact_list: контакты.телефон[Дима]=111-22-33; contact_list: контакты.телефон[Миша]=+7 999 000 00 00"},
		{"Phone numbers of my friends: Dima — 111, Misha — 222", "contact_list: contacts.phone[Dima]=111; contact_list: contacts.phone[Misha]=222"},
		{"Denis was born in Kazan", "born: contacts.born[Denis]=Kazan"},
		{"Денис родился в Казани", "born: контакты.родился[Денис]=в Казани"},
		{"Оля — моя сестра, она живёт в Казани и работает врачом", "relation: контакты.отношение[Оля]=сестра; lives: контакты.живёт[Оля]=в Казани; role: контакты.роль[Оля]=врач"},
		{"Ann is my manager", "relation: contacts.relation[Ann]=manager"},
		{"Ann lives in Porto and works at Farfetch", "lives: contacts.lives[Ann]=Porto; works_at: contacts.works_at[Ann]=Farfetch"},
		{"Dima is now team lead", "role: contacts.role[Dima]=team lead!"},
		{"Дима переехал в Берлин", "lives: контакты.живёт[Дима]=в Берлин!"},
		{"Теперь Дима тимлид", "role: контакты.роль[Дима]=тимлид!"},
		{"мой друг Денис с 1992 по 1994 год служил в Кремле", "relation: контакты.отношение[Денис]=друг"},
		{"my friend Denis served in the Kremlin regiment", "relation: contacts.relation[Denis]=friend"},
		{"мои друзья — Дима и Миша", "relation: контакты.отношение[Дима]=друг; relation_list: контакты.отношение[Миша]=друг"},
		{"her phone is 222", ""},
		{"my sister Olya, her phone is 222", "relation: contacts.relation[Olya]=sister; contact: contacts.phone[Olya]=222"},
		// Parts of a phrase no rule reads stay in the record only.
		{"телефоны друзей: Дима — 111, Миша — не помню", "contact_list: контакты.телефон[Дима]=111"},
		{"у меня в команде работает Юля — продменеджер, и ещё кто-то", "team_list: команда.роль[Юля]=продменеджер"},
		{"The phone of Dima is broken", ""},
		{"в команде все устали", ""},
		{"Dima thinks the deploy is broken, Misha — not", ""},
		{"Денис служил в Кремлёвском полку с 1992 по 1994", ""},
		{"I have friends everywhere", ""},
		{"Юля — продменеджер, Дима — менеджер", ""},
		{"my name is Ann", ""},
		{"Дима теперь не пьёт", ""},
		{"Дима теперь женат", ""},
		{"Ann is now busy", ""},
		{"она живёт в Казани", ""},
		{"Сколько мы заработали денег в мае–августе? Дай ответ с детализацией", ""},
	} {
		units, _ := shape(c.in)
		if got := formatUnits(units); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
