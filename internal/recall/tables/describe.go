package tables

import (
	"fmt"
	"sort"
)

// TableInfo describes one table for a caller choosing where a value goes:
// reusing an existing table beats making a second one for the same thing.
type TableInfo struct {
	Name       string   `json:"name"`
	Shape      string   `json:"shape"`
	Parent     string   `json:"parent,omitempty"`      // a list: the root table it grew from
	ParentKind string   `json:"parent_kind,omitempty"` // and the kind it replaced
	Kinds      []string `json:"kinds,omitempty"`
	Rows       int      `json:"rows"`
}

// Describe lists every table with its kinds and row count, by name.
func (s *Store) Describe() ([]TableInfo, error) {
	rows, err := s.db.Query(`SELECT name, shape, parent, parent_kind FROM _tables ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	var out []TableInfo
	for rows.Next() {
		var t TableInfo
		if err := rows.Scan(&t.Name, &t.Shape, &t.Parent, &t.ParentKind); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, t)
	}
	rows.Close()
	for i := range out {
		t := &out[i]
		if err := s.db.QueryRow(`SELECT count(*) FROM ` + sqlName(t.Name)).Scan(&t.Rows); err != nil {
			return nil, fmt.Errorf("count rows of %s: %w", t.Name, err)
		}
		kr, err := s.db.Query(`SELECT kind FROM _kinds WHERE tbl=?`, t.Name)
		if err != nil {
			return nil, err
		}
		for kr.Next() {
			var k string
			kr.Scan(&k)
			t.Kinds = append(t.Kinds, k)
		}
		kr.Close()
		sort.Strings(t.Kinds)
	}
	return out, nil
}

// Keys lists the distinct row keys of a table, in the order first written.
func (s *Store) Keys(table string) ([]string, error) {
	t, err := Normalize(table)
	if err != nil {
		return nil, err
	}
	if !s.Exists(t) {
		return nil, nil
	}
	rows, err := s.db.Query(`SELECT key FROM ` + sqlName(t) + ` GROUP BY key ORDER BY min(id)`)
	if err != nil {
		return nil, fmt.Errorf("list keys of %s: %w", t, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}
