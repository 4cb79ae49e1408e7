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
)

// groupWords are the heads of a question's group of people by the stem
// of their Russian or English form: they name a table, not a relation.
var groupWords = []string{"команд", "отдел", "сем", "групп", "team", "depart", "famili", "group"}

// peopleAsked reads the relation words and group words a question's
// possessives name ("моих друзей" → друг, "my team" → team).
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
		st := relationStem(h)
		group := false
		for _, g := range groupWords {
			if strings.HasPrefix(st, g) {
				group = true
			}
		}
		if group {
			groups = append(groups, h)
		} else if !contains(relations, st) {
			relations = append(relations, st)
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

// peopleOf finds the rows of the people a question names: the cells of a
// relation kind whose value is the relation asked for, and every row of a
// group's table. One cell per person, in the order of the tables.
func (b *Box) peopleOf(q string) ([]tables.Cell, string, error) {
	relations, groups := peopleAsked(q)
	if len(relations)+len(groups) == 0 {
		return nil, "the question names no people of the speaker (my friends, моя команда)", nil
	}
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
		groupTable := false
		for _, g := range groups {
			if tables.Named(tables.Words(g), ti.Name) {
				groupTable = true
			}
		}
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
			case c.Kind == relKind && contains(relations, relationStem(c.Value)):
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
