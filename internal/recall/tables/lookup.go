package tables

import (
	"crypto/sha1"
	"database/sql"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/text/textan"
)

// Cell is one value found in the store, with the scope it holds under.
type Cell struct {
	ID       string    `json:"id"`
	Table    string    `json:"table"`
	Key      string    `json:"key"`
	Kind     string    `json:"kind"`
	Value    string    `json:"value"`
	Claim    string    `json:"claim"`
	Basis    string    `json:"basis,omitempty"`
	At       time.Time `json:"at"`
	Calendar string    `json:"calendar,omitempty"`
	Geo      string    `json:"geo,omitempty"`
}

func cellID(parts ...string) string {
	h := sha1.Sum([]byte(strings.Join(parts, "\x00")))
	return "t-" + hex.EncodeToString(h[:6])
}

func listID(parts ...string) string { return cellID(append([]string{"list"}, parts...)...) }

// Query is an exact lookup: Words from the question, or Table/Key/Kind
// given by the caller (each narrows the lookup when set).
type Query struct {
	Words []string
	Table string
	Key   string
	Kind  string
}

// Words splits text into lower-case words, adding the transliteration of
// Cyrillic words, and of their stems, so they meet the names they became
// ("команде" meets the table komanda through the stem "команд").
func Words(text string) []string {
	var out []string
	for _, w := range textan.Words(text) {
		out = append(out, w)
		if n, err := Normalize(w); err == nil && n != w {
			out = append(out, n)
			if st := textan.Stem(w); st != w {
				if n2, err := Normalize(st); err == nil && n2 != n {
					out = append(out, n2)
				}
			}
		}
	}
	return out
}

// near treats plural and case endings as the same word: cheap, and enough
// for a lookup by names the caller chose. Russian words meet by their
// Snowball stems (Димы and Дима, Юли and Юля).
func near(a, b string) bool {
	if a == b {
		return true
	}
	if cyrillic(a) && cyrillic(b) {
		sa, sb := textan.Stem(a), textan.Stem(b)
		if sa == sb && len([]rune(sa)) >= 2 {
			return true
		}
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 4 && strings.HasPrefix(b, a) && len(b)-len(a) <= 2
}

func cyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// Named reports whether a name (a table's or a kind's) is named by one of
// the words, the way Lookup decides it.
func Named(words []string, name string) bool {
	for _, part := range strings.Split(name, "_") {
		for _, w := range words {
			if near(w, part) {
				return true
			}
		}
	}
	return false
}

// keyIn reports whether every word of key appears in words.
func keyIn(words []string, key string) bool {
	kw := Words(key)
	if len(kw) == 0 {
		return false
	}
	for _, k := range textan.Words(key) {
		found := false
		for _, w := range words {
			if near(w, k) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Lookup finds the cells a query names: a cell answers when its key is in
// the question and its table or kind is too (or the caller named them).
func (s *Store) Lookup(q Query) ([]Cell, error) {
	all, err := s.Tables()
	if err != nil {
		return nil, err
	}
	var names []string
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	var want struct{ table, kind string }
	if q.Table != "" {
		if want.table, err = Normalize(q.Table); err != nil {
			return nil, err
		}
	}
	if q.Kind != "" {
		if want.kind, err = Normalize(q.Kind); err != nil {
			return nil, err
		}
	}
	var out []Cell
	for _, t := range names {
		if want.table != "" && t != want.table {
			continue
		}
		var cells []Cell
		if all[t] == ShapeRoot {
			cells, err = s.rootCells(t)
		} else {
			cells, err = s.listCells(t)
		}
		if err != nil {
			return nil, err
		}
		for _, c := range cells {
			if want.kind != "" && c.Kind != want.kind {
				continue
			}
			keyOK := q.Key != "" && strings.EqualFold(strings.TrimSpace(q.Key), c.Key) || q.Key == "" && keyIn(q.Words, c.Key)
			// The name must be named by a word other than the key's own,
			// or a table named after its key would answer every mention.
			rest := without(q.Words, c.Key)
			nameOK := want.table != "" || want.kind != "" || Named(rest, c.Table) || Named(rest, c.Kind)
			if keyOK && nameOK {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

func (s *Store) rootCells(t string) ([]Cell, error) {
	rows, err := s.db.Query(`SELECT kind FROM _kinds WHERE tbl=? ORDER BY kind`, t)
	if err != nil {
		return nil, fmt.Errorf("list kinds of %s: %w", t, err)
	}
	var kinds []string
	for rows.Next() {
		var k string
		rows.Scan(&k)
		kinds = append(kinds, k)
	}
	rows.Close()
	var out []Cell
	for _, k := range kinds {
		r, err := s.db.Query(`SELECT key, calendar, geo, ` + col(k) + `, ` + col(k+"__claim") + `, ` + col(k+"__basis") + `, ` + col(k+"__at") + ` FROM ` + sqlName(t) + ` WHERE ` + col(k) + ` IS NOT NULL ORDER BY id`)
		if err != nil {
			return nil, fmt.Errorf("read %s.%s: %w", t, k, err)
		}
		for r.Next() {
			var c Cell
			var claim, basis, at sql.NullString
			if err := r.Scan(&c.Key, &c.Calendar, &c.Geo, &c.Value, &claim, &basis, &at); err != nil {
				r.Close()
				return nil, err
			}
			c.Table, c.Kind, c.Claim, c.Basis = t, k, claim.String, basis.String
			c.At, _ = time.Parse(time.RFC3339Nano, at.String)
			c.ID = cellID(t, c.Key, c.Calendar, c.Geo, k)
			out = append(out, c)
		}
		r.Close()
	}
	return out, nil
}

func (s *Store) listCells(t string) ([]Cell, error) {
	r, err := s.db.Query(`SELECT key, calendar, geo, value, claim, basis, at FROM ` + sqlName(t) + ` ORDER BY at, id`)
	if err != nil {
		return nil, fmt.Errorf("read list %s: %w", t, err)
	}
	defer r.Close()
	var out []Cell
	for r.Next() {
		var c Cell
		var v, claim, basis sql.NullString
		var at string
		if err := r.Scan(&c.Key, &c.Calendar, &c.Geo, &v, &claim, &basis, &at); err != nil {
			return nil, err
		}
		c.Table, c.Kind, c.Value, c.Claim, c.Basis = t, "value", v.String, claim.String, basis.String
		c.At, _ = time.Parse(time.RFC3339Nano, at)
		c.ID = listID(t, c.Key, c.Calendar, c.Geo, at, c.Value)
		out = append(out, c)
	}
	return out, r.Err()
}

// LinkTable is the name of an entity's link table: relearn appends to it
// when it exists and skips it when it does not.
func LinkTable(entity string) (string, error) {
	n, err := Normalize(entity)
	if err != nil {
		return "", err
	}
	return n + "_links", nil
}

// without drops the words of key from words.
func without(words []string, key string) []string {
	kw := Words(key)
	var out []string
	for _, w := range words {
		drop := false
		for _, k := range kw {
			if near(w, k) {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, w)
		}
	}
	return out
}

// Cells returns every value of a table: each kind's values of a root
// table, or the rows of a list (kind "value").
func (s *Store) Cells(table string) ([]Cell, error) {
	sh, _, _, err := s.shape(s.db, table)
	if err != nil {
		return nil, err
	}
	if sh == ShapeList {
		return s.listCells(table)
	}
	return s.rootCells(table)
}
