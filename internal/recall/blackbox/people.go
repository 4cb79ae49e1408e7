package blackbox

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// The people of a question: "кто из моих друзей мог знать Ельцина" is
// about the speaker's friends, and the research walk starts with them —
// the rows of that relation in the tables (the shaping grammar puts
// "мой друг Денис" there), or the rows of a group's table ("my team",
// "моей команды") — before it looks for anyone in the graph.

var (
	rxPossRU = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:мо(?:и|их|им|ими|ей|я|й|его|ему|ём|ем|ю)|наш(?:и|их|им|ими|ей|а|его|ему|у)?)\s+(\p{L}+)`)
	rxPossEN = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:my|our)\s+(\p{L}+)`)
	// rxPossWord is one possessive word, lower case.
	rxPossWord = lazyregexp.New(`^(?:мо(?:и|их|им|ими|ей|я|й|его|ему|ём|ем|ю)|наш(?:и|их|им|ими|ей|а|его|ему|у|ем|ем)?|my|our)$`)
)

// peopleAsked reads the relation words and group words a question's
// possessives name ("моих друзей" → friend, "my team" → team), each by the
// name both languages share (see relationName and groupWordsOf).
func peopleAsked(q string) (relations, groups []string) {
	var heads []string
	for _, re := range []*lazyregexp.Regexp{rxPossRU, rxPossEN} {
		for _, m := range re.FindAllStringSubmatch(q, -1) {
			heads = append(heads, strings.ToLower(m[1]))
		}
	}
	for _, h := range heads {
		if notRelation[h] {
			continue
		}
		if g, ok := groupWordsOf()[textan.Stem(h)]; ok {
			if !contains(groups, g) {
				groups = append(groups, g)
			}
		} else if r := relationName(h); !contains(relations, r) {
			relations = append(relations, r)
		}
	}
	return relations, groups
}

// memberWords are the words a question asking who belongs to a group or a
// relation may hold besides it: the asking, the possessive, "in", "are".
var memberWords = map[string]bool{
	"кто": true, "who": true, "which": true, "все": true, "всех": true, "all": true, "list": true, "перечисли": true,
	"назови": true, "name": true, "members": true, "member": true, "состав": true, "people": true, "люди": true,
	"работает": true, "работают": true, "входит": true, "входят": true, "состоит": true, "состоят": true, "есть": true,
	"works": true, "work": true, "working": true, "is": true, "are": true, "in": true, "on": true, "of": true, "the": true,
	"в": true, "во": true, "из": true, "у": true, "меня": true, "нас": true, "i": true, "have": true, "we": true,
}

// membersAsked reads a question that asks only who belongs to a group or
// has a relation to the speaker ("кто в моей команде", "who is on the
// team", "кто мои друзья", "who are my friends"): every word is one of
// those, a possessive, or a group or relation word. A question that asks
// more of them ("кто из моих друзей мог знать Ельцина") is not one.
func membersAsked(q string) (relations, groups []string) {
	for _, w := range textan.Words(q) {
		st := textan.Stem(w)
		switch {
		case memberWords[w] || textan.IsStopWord(w) || questionWords[w] || rxPossWord.MatchString(w):
		case groupWordsOf()[st] != "":
			if !contains(groups, groupWordsOf()[st]) {
				groups = append(groups, groupWordsOf()[st])
			}
		case relationWords()[relationStem(w)] != "" || relPlural[w] != "":
			if r := relationName(w); !contains(relations, r) {
				relations = append(relations, r)
			}
		default:
			return nil, nil
		}
	}
	return relations, groups
}

// relationStem is the stem a relation word meets its rows by: plurals
// built on another root (друзья, друзей) by their singular.
func relationStem(w string) string {
	ws := textan.Words(w)
	if len(ws) == 0 {
		return ""
	}
	last := ws[len(ws)-1]
	if s, ok := relPlural[last]; ok {
		last = s
	}
	return textan.Stem(last)
}

// peopleOf finds the rows of the people a question names (see
// peopleAsked).
func (b *Box) peopleOf(q string) ([]tables.Cell, string, error) {
	relations, groups := peopleAsked(q)
	if len(relations)+len(groups) == 0 {
		return nil, "the question names no people of the speaker (my friends, моя команда)", nil
	}
	return b.rowsOf(relations, groups)
}

// rowsOf finds the rows of those people: the cells of a relation kind
// whose value is one of the relations (by the name both languages share:
// "friends" meets друг), and every row of a group's table in either
// language. One cell per person, in the order of the tables.
func (b *Box) rowsOf(relations, groups []string) ([]tables.Cell, string, error) {
	asked := strings.Join(append(append([]string{}, relations...), groups...), ", ")
	if b.Tables == nil {
		return nil, "no relational store", nil
	}
	infos, err := b.Tables.Describe()
	if err != nil {
		return nil, "", err
	}
	var out []tables.Cell
	seen := map[string]bool{}
	var where []string
	keep := func(c tables.Cell) {
		if seen[strings.ToLower(c.Key)] {
			return
		}
		seen[strings.ToLower(c.Key)] = true
		out = append(out, c)
		if w := c.Table; !contains(where, w) {
			where = append(where, w)
		}
	}
	for _, ti := range infos {
		relKind := ""
		if ti.Shape == tables.ShapeList && slotOfKind[ti.ParentKind] == slotRelation {
			relKind = "value"
		}
		groupTable := ti.Shape == tables.ShapeRoot && (contains(groups, groupOfTable[ti.Name]) || tables.Named(groupTableNames(groups), ti.Name))
		if relKind == "" && !groupTable && ti.Shape == tables.ShapeRoot {
			for _, k := range ti.Kinds {
				if slotOfKind[k] == slotRelation {
					relKind = k
				}
			}
		}
		if relKind == "" && !groupTable {
			continue
		}
		cells, err := b.Tables.Cells(ti.Name)
		if err != nil {
			return nil, "", err
		}
		sort.SliceStable(cells, func(i, j int) bool { return cells[i].At.Before(cells[j].At) })
		for _, c := range cells {
			switch {
			case groupTable:
				keep(c)
			case c.Kind == relKind && contains(relations, relationName(c.Value)):
				keep(c)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("the question asks about the speaker's %s; no table row holds them", asked), nil
	}
	var names []string
	for _, c := range out {
		names = append(names, c.Key)
	}
	return out, fmt.Sprintf("%d people (%s) in %s: %s", len(out), asked, strings.Join(where, ", "), strings.Join(names, ", ")), nil
}

// groupTableNames are the names of the groups' tables in both languages:
// a table named after one ("komanda_arkhitektora") is the group's too.
func groupTableNames(groups []string) []string {
	var out []string
	for t, g := range groupOfTable {
		if contains(groups, g) {
			out = append(out, t)
		}
	}
	return out
}
