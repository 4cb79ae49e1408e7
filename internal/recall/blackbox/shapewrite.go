package blackbox

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Where a shaped unit goes and by which hand: the seed's measure of column
// against table. A person is a row; what is true of them is a kind (a
// column) of that row, in the table where the row already is (the people
// table when it is nowhere yet); a group is a table of its own. A column
// holds one value: the same value again changes nothing, a value the
// phrase says replaced the old one ("теперь тимлид", "moved to") is
// written in place with its own time, and any other second value makes the
// kind a list table, the earlier value moving there with its own time.

// shapeTables writes what the grammar read out of the phrase; tables and
// kinds are made as needed and reported like the caller's own.
func (b *Box) shapeTables(ans *RememberAnswer, req RememberRequest, record string, now time.Time) error {
	units, unread := shape(req.Text)
	if len(units) == 0 {
		ans.Shape = &ShapeNote{Rule: "none", Unread: unread,
			Note: "no shaping rule reads a relation, an attribute or a group in this phrase; it is kept as a text record only (give table, key and kind to put a value in a table)"}
		return nil
	}
	if b.Tables == nil {
		return fmt.Errorf("remember: no relational store")
	}
	note := &ShapeNote{Unread: unread}
	ans.Shape = note
	merged, err := b.mergeSplit(ans, now)
	note.Merged = merged
	if err != nil {
		return err
	}
	var rules []string
	for _, u := range units {
		if !contains(rules, u.Rule) {
			rules = append(rules, u.Rule)
		}
		su, err := b.shapeOne(ans, u, req.Scope, "record "+record, now)
		if err != nil {
			return err
		}
		note.Units = append(note.Units, su)
	}
	note.Rule = strings.Join(rules, "+")
	note.Note = fmt.Sprintf("the phrase holds %d value(s) the rules %s read without guessing; written to tables as stated by the person", len(units), strings.Join(rules, ", "))
	if len(unread) > 0 {
		note.Note += fmt.Sprintf("; %d clause(s) no rule reads stay in the record only", len(unread))
	}
	return nil
}

func (b *Box) shapeOne(ans *RememberAnswer, u Shaped, sc Scope, basis string, now time.Time) (ShapeUnit, error) {
	infos, err := b.Tables.Describe()
	if err != nil {
		return ShapeUnit{}, err
	}
	u.Table, u.Kind = sharedTable(u, infos)
	key := b.shapeKey(u, infos)
	table, kind := b.shapeTarget(u, key, infos)
	t, k, err := b.makeColumn(ans, table, kind, now)
	if err != nil {
		return ShapeUnit{}, err
	}
	su := ShapeUnit{Rule: u.Rule, Table: t, Kind: k, Key: key, Value: u.Value}
	v := tables.Value{Key: key, Value: u.Value, Claim: tables.ClaimStated, Basis: basis, Calendar: sc.Calendar, Geo: sc.Geo}
	hand, cell, what, err := b.place(ans, t, k, v, u.Update, now)
	if err != nil {
		return su, err
	}
	su.Hand = hand
	if cell.Table != t {
		su.Table, su.Kind = cell.Table, "value"
	}
	ans.Stores = append(ans.Stores, Stored{Store: "tables", ID: cell.ID, Table: su.Table, What: "shaped by rule " + u.Rule + ": " + what})
	return su, nil
}

// makeColumn makes the table and its kind when missing, reporting what it
// made in the answer.
func (b *Box) makeColumn(ans *RememberAnswer, table, kind string, now time.Time) (string, string, error) {
	t, created, err := b.Tables.Create(table, now)
	if err != nil {
		return "", "", fmt.Errorf("remember: create table %s: %w", table, err)
	}
	if created {
		ans.TablesCreated = append(ans.TablesCreated, t)
	}
	_, k, kc, err := b.Tables.NewKind(t, kind, now)
	if err != nil {
		return "", "", fmt.Errorf("remember: make kind %s.%s: %w", t, kind, err)
	}
	if kc {
		ans.KindsCreated = append(ans.KindsCreated, t+"."+k)
	}
	return t, k, nil
}

// place writes v into kind k of table t by the hand the values already
// there call for (see the comment at the top), the op's time being now.
// It returns the hand, the cell written (or held already) and what
// happened, in words.
func (b *Box) place(ans *RememberAnswer, t, k string, v tables.Value, update bool, now time.Time) (string, tables.Cell, string, error) {
	infos, err := b.Tables.Describe()
	if err != nil {
		return "", tables.Cell{}, "", err
	}
	key := v.Key
	sc := Scope{Calendar: v.Calendar, Geo: v.Geo}
	cur, list, rows, err := b.current(t, k, key, sc, infos)
	if err != nil {
		return "", tables.Cell{}, "", err
	}
	var cell tables.Cell
	switch {
	case cur != nil && sameValue(cur.Value, v.Value), cur == nil && len(rows) > 0 && (sameValue(rows[len(rows)-1].Value, v.Value) || !update && anySame(rows, v.Value)):
		held := cur
		if held == nil {
			held = &rows[len(rows)-1]
		}
		return "known", *held, fmt.Sprintf("already held: %s.%s[%s] = %s (written %s); nothing written", held.Table, held.Kind, key, held.Value, stamp(held.At)), nil
	case cur != nil && update:
		if cell, err = b.Tables.Write(t, k, v, now); err != nil {
			return "", cell, "", fmt.Errorf("remember: update %s.%s[%s]: %w", t, k, key, err)
		}
		return "update", cell, fmt.Sprintf("updated in place: %s.%s[%s] = %s (was %s, written %s)", t, k, key, v.Value, cur.Value, stamp(cur.At)), nil
	case cur != nil:
		l, lc, err := b.Tables.Promote(t, k, "", key, sc.Calendar, sc.Geo, now)
		if err != nil {
			return "", cell, "", fmt.Errorf("remember: promote %s.%s[%s] to a list: %w", t, k, key, err)
		}
		if cell, err = b.Tables.Append(l, v, now); err != nil {
			return "", cell, "", fmt.Errorf("remember: append to %s: %w", l, err)
		}
		if lc {
			ans.TablesCreated = append(ans.TablesCreated, l)
			ans.NewTablesWithRows = append(ans.NewTablesWithRows, l)
		}
		return "promote", cell, fmt.Sprintf("a second value: %s.%s[%s] became the list %s (the earlier %s moved with its own time, %s); %s appended", t, k, key, l, cur.Value, stamp(cur.At), v.Value), nil
	case len(rows) > 0:
		if cell, err = b.Tables.Append(list, v, now); err != nil {
			return "", cell, "", fmt.Errorf("remember: append to %s: %w", list, err)
		}
		return "append", cell, fmt.Sprintf("appended to the list %s[%s]: %s (the latest value; the earlier ones keep their times)", list, key, v.Value), nil
	}
	hand := "write"
	if contains(ans.KindsCreated, t+"."+k) {
		hand = "new_kind"
	}
	if cell, err = b.Tables.Write(t, k, v, now); err != nil {
		return "", cell, "", fmt.Errorf("remember: write %s.%s[%s]: %w", t, k, key, err)
	}
	if contains(ans.TablesCreated, t) && !contains(ans.NewTablesWithRows, t) {
		ans.NewTablesWithRows = append(ans.NewTablesWithRows, t)
	}
	return hand, cell, fmt.Sprintf("%s.%s[%s] = %s", t, k, key, v.Value), nil
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04Z") }

// sameValue compares two values as words (case and ё folded).
func sameValue(a, b string) bool {
	return strings.Join(textan.Words(a), " ") == strings.Join(textan.Words(b), " ")
}

func anySame(rows []tables.Cell, v string) bool {
	for _, r := range rows {
		if sameValue(r.Value, v) {
			return true
		}
	}
	return false
}

// current is the value a kind holds for a key and scope: the root cell,
// or — once the kind became a list for that key — the list's rows, oldest
// first.
func (b *Box) current(t, k, key string, sc Scope, infos []tables.TableInfo) (*tables.Cell, string, []tables.Cell, error) {
	cells, err := b.Tables.Cells(t)
	if err != nil {
		return nil, "", nil, err
	}
	for _, c := range cells {
		if c.Kind == k && c.Key == key && c.Calendar == sc.Calendar && c.Geo == sc.Geo {
			c := c
			return &c, "", nil, nil
		}
	}
	for _, ti := range infos {
		if ti.Shape != tables.ShapeList || ti.Parent != t || ti.ParentKind != k {
			continue
		}
		lc, err := b.Tables.Cells(ti.Name)
		if err != nil {
			return nil, "", nil, err
		}
		var rows []tables.Cell
		for _, c := range lc {
			if c.Key == key && c.Calendar == sc.Calendar && c.Geo == sc.Geo {
				rows = append(rows, c)
			}
		}
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].At.Before(rows[j].At) })
		return nil, ti.Name, rows, nil
	}
	return nil, "", nil, nil
}

// shapeKey is the row a unit is about: a Russian name in an oblique case
// meets an existing key by its stem (else its nominative by the regular
// endings); any other name meets an existing key spelled the same but
// for case, and is otherwise the name as written.
func (b *Box) shapeKey(u Shaped, infos []tables.TableInfo) string {
	for _, ti := range infos {
		if ti.Shape != tables.ShapeRoot {
			continue
		}
		keys, _ := b.Tables.Keys(ti.Name)
		for _, k := range keys {
			if u.Genitive && (sameStem(k, u.Key) || sameStem(k, nominative(u.Key))) || !u.Genitive && strings.EqualFold(k, u.Key) {
				return k
			}
		}
	}
	if u.Genitive {
		return nominative(u.Key)
	}
	return u.Key
}

// shapeTarget is the table and kind a unit goes to: a group's unit to the
// group's table, a relation to the people table, an attribute to the
// table and kind already holding that attribute of the key, else to the
// table holding the key's row (the people table first), else the people
// table.
func (b *Box) shapeTarget(u Shaped, key string, infos []tables.TableInfo) (string, string) {
	pn, _ := tables.Normalize(u.Table)
	if groupOfTable[pn] != "people" || u.Slot == slotRelation {
		return u.Table, u.Kind
	}
	people := pn
	var holding []string
	for _, ti := range infos {
		if ti.Shape != tables.ShapeRoot {
			continue
		}
		keys, _ := b.Tables.Keys(ti.Name)
		if !contains(keys, key) {
			continue
		}
		holding = append(holding, ti.Name)
		for _, k := range ti.Kinds {
			if slotOfKind[k] == u.Slot {
				return ti.Name, k
			}
		}
	}
	switch {
	case contains(holding, pn):
		return people, u.Kind
	case len(holding) == 1:
		return holding[0], u.Kind
	}
	return people, u.Kind
}
