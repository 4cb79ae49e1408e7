package tables

import (
	"fmt"
	"time"
)

// Claim kinds say how a value is known.
const (
	ClaimStated   = "stated"   // the person said it
	ClaimInferred = "inferred" // memory concluded it
	ClaimComputed = "computed" // calculated from other values
)

// Value is what a hand writes.
type Value struct {
	Key      string // the row: who or what the value is about
	Value    string
	Claim    string // ClaimStated when empty
	Basis    string // where it comes from (a record id, a file, "said by the user")
	Calendar string // scope: date or period, "" = unknown
	Geo      string // scope: place, "" = unknown
}

// Tables lists table names with their shape.
func (s *Store) Tables() (map[string]string, error) {
	rows, err := s.db.Query(`SELECT name, shape FROM _tables`)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var n, sh string
		if err := rows.Scan(&n, &sh); err != nil {
			return nil, err
		}
		out[n] = sh
	}
	return out, rows.Err()
}

// Exists reports whether a (normalised) table exists.
func (s *Store) Exists(table string) bool {
	_, _, _, err := s.shape(s.db, table)
	return err == nil
}

// HasKind reports whether a root table has a kind.
func (s *Store) HasKind(table, kind string) bool { return hasKind(s.db, table, kind) }

// Create makes a root table; created is false when it existed.
func (s *Store) Create(table string, now time.Time) (name string, created bool, err error) {
	if table, err = Normalize(table); err != nil {
		return "", false, err
	}
	if s.Exists(table) {
		return table, false, nil
	}
	return table, true, s.commit(Op{Op: "create", Table: table, At: now})
}

// NewKind makes a new kind of a root table: four columns (the value, its
// claim kind, its basis and its time).
func (s *Store) NewKind(table, kind string, now time.Time) (t, k string, created bool, err error) {
	if t, err = Normalize(table); err != nil {
		return "", "", false, err
	}
	if k, err = CheckKind(kind); err != nil {
		return "", "", false, err
	}
	if s.HasKind(t, k) {
		return t, k, false, nil
	}
	return t, k, true, s.commit(Op{Op: "kind", Table: t, Kind: k, At: now})
}

// Write puts a value in place: the row of (key, calendar, geo) gets the
// kind's value; the shape of the table does not grow.
func (s *Store) Write(table, kind string, v Value, now time.Time) (Cell, error) {
	t, err := Normalize(table)
	if err != nil {
		return Cell{}, err
	}
	k, err := Normalize(kind)
	if err != nil {
		return Cell{}, err
	}
	if v.Claim == "" {
		v.Claim = ClaimStated
	}
	val := v.Value
	op := Op{Op: "write", Table: t, Kind: k, Key: v.Key, Value: &val, Claim: v.Claim, Basis: v.Basis, Calendar: v.Calendar, Geo: v.Geo, At: now}
	if err := s.commit(op); err != nil {
		return Cell{}, err
	}
	return Cell{ID: cellID(t, v.Key, v.Calendar, v.Geo, k), Table: t, Key: v.Key, Kind: k, Value: val, Claim: v.Claim, Basis: v.Basis, At: now.UTC(), Calendar: v.Calendar, Geo: v.Geo}, nil
}

// Promote turns the kind of a row into a list: the list table is made when
// missing (or reused when it is already this kind's list), the old value
// moves there with its own time, and the root field is cleared. created
// says whether the list table is new.
func (s *Store) Promote(table, kind, list string, key, calendar, geo string, now time.Time) (l string, created bool, err error) {
	t, err := Normalize(table)
	if err != nil {
		return "", false, err
	}
	k, err := Normalize(kind)
	if err != nil {
		return "", false, err
	}
	if list == "" {
		l = t + "_" + k
	} else if l, err = Normalize(list); err != nil {
		return "", false, err
	}
	created = !s.Exists(l)
	return l, created, s.commit(Op{Op: "promote", Table: t, Kind: k, List: l, Key: key, Calendar: calendar, Geo: geo, At: now})
}

// Append adds a row to an existing list table.
func (s *Store) Append(list string, v Value, now time.Time) (Cell, error) {
	l, err := Normalize(list)
	if err != nil {
		return Cell{}, err
	}
	if v.Claim == "" {
		v.Claim = ClaimStated
	}
	val := v.Value
	if err := s.commit(Op{Op: "append", Table: l, Key: v.Key, Value: &val, Claim: v.Claim, Basis: v.Basis, Calendar: v.Calendar, Geo: v.Geo, At: now}); err != nil {
		return Cell{}, err
	}
	return Cell{ID: listID(l, v.Key, v.Calendar, v.Geo, now.UTC().Format(time.RFC3339Nano), val), Table: l, Key: v.Key, Kind: "value", Value: val, Claim: v.Claim, Basis: v.Basis, At: now.UTC(), Calendar: v.Calendar, Geo: v.Geo}, nil
}

// Drop removes a table whose values were moved elsewhere (a root table
// must have no list left). The journal keeps every write it held and the
// drop itself, so replaying it rebuilds the same tables.
func (s *Store) Drop(table string, now time.Time) error {
	t, err := Normalize(table)
	if err != nil {
		return err
	}
	return s.commit(Op{Op: "drop", Table: t, At: now})
}
