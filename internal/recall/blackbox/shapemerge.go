package blackbox

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

// mergeSplit makes one table of each kind memory shapes by itself. An
// older memhook named a table in the statement's language, so Russian
// and English statements of one kind could fill kontakty and contacts
// side by side. When a kind has tables in both languages, the one with
// fewer rows (on a tie, the later name) moves into the other: every value
// with its own time, claim, basis and scope, its kind mapped to the
// kept table's kind for the same slot, by the hands shaping uses (the
// same value again is known, a different one makes a list); then its
// lists and itself are dropped. Every step is a journal op, so a merge
// cut short is finished by the next one and nothing it moved is lost.
// It returns what it did, one line per table merged.
func (b *Box) mergeSplit(ans *RememberAnswer, now time.Time) ([]string, error) {
	infos, err := b.Tables.Describe()
	if err != nil {
		return nil, err
	}
	byGroup := map[string][]tables.TableInfo{}
	for _, ti := range infos {
		if g := groupOfTable[ti.Name]; g != "" && ti.Shape == tables.ShapeRoot {
			byGroup[g] = append(byGroup[g], ti)
		}
	}
	groups := make([]string, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	var out []string
	for _, g := range groups {
		ts := byGroup[g]
		if len(ts) < 2 {
			continue
		}
		sort.SliceStable(ts, func(i, j int) bool {
			if ts[i].Rows != ts[j].Rows {
				return ts[i].Rows > ts[j].Rows
			}
			return ts[i].Name < ts[j].Name
		})
		for _, from := range ts[1:] {
			line, err := b.mergeInto(ans, from, ts[0].Name, infos, now)
			if err != nil {
				return out, fmt.Errorf("remember: merge %s into %s: %w", from.Name, ts[0].Name, err)
			}
			out = append(out, line)
		}
	}
	return out, nil
}

// mergeInto moves every value of table from (and of its lists) into the
// table into, then drops from and its lists.
func (b *Box) mergeInto(ans *RememberAnswer, from tables.TableInfo, into string, infos []tables.TableInfo, now time.Time) (string, error) {
	target := func(kind string) string {
		slot := slotOfKind[kind]
		if slot == "" {
			return kind // a kind no rule names keeps its name
		}
		for _, ti := range infos {
			if ti.Name == into {
				for _, k := range ti.Kinds {
					if slotOfKind[k] == slot {
						return k
					}
				}
			}
		}
		return langs[tableLang(into)].kinds[slot]
	}
	var cells []tables.Cell
	kindOf := map[string]string{} // a cell's kind in from, for its list's rows the list's kind
	root, err := b.Tables.Cells(from.Name)
	if err != nil {
		return "", err
	}
	cells = append(cells, root...)
	var lists []string
	for _, ti := range infos {
		if ti.Shape != tables.ShapeList || ti.Parent != from.Name {
			continue
		}
		lists = append(lists, ti.Name)
		rows, err := b.Tables.Cells(ti.Name)
		if err != nil {
			return "", err
		}
		for _, c := range rows {
			kindOf[c.ID] = ti.ParentKind
		}
		cells = append(cells, rows...)
	}
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].At.Before(cells[j].At) })
	moved, known := 0, 0
	var mapped []string
	for _, c := range cells {
		kind := c.Kind
		if k, ok := kindOf[c.ID]; ok {
			kind = k
		}
		k := target(kind)
		if m := kind + "→" + k; kind != k && !contains(mapped, m) {
			mapped = append(mapped, m)
		}
		if _, _, err := b.makeColumn(ans, into, k, c.At); err != nil {
			return "", err
		}
		v := tables.Value{Key: c.Key, Value: c.Value, Claim: c.Claim, Basis: c.Basis, Calendar: c.Calendar, Geo: c.Geo}
		hand, _, _, err := b.place(ans, into, k, v, false, c.At)
		if err != nil {
			return "", err
		}
		if hand == "known" {
			known++
		} else {
			moved++
		}
	}
	for _, l := range append(lists, from.Name) {
		if err := b.Tables.Drop(l, now); err != nil {
			return "", err
		}
	}
	line := fmt.Sprintf("%s merged into %s (one table of its kind, whatever the language): %d values moved with their own times, %d already held", from.Name, into, moved, known)
	if len(mapped) > 0 {
		line += "; kinds " + strings.Join(mapped, ", ")
	}
	dropped := append([]string{from.Name}, lists...)
	return line + "; dropped " + strings.Join(dropped, ", ") + " (the journal keeps what they held)", nil
}
