package serve

import (
	"reflect"
	"testing"
	"time"
)

// TestShowAnswerTable: records become a table in a fixed column order,
// a time is shown to the minute, and anything nested stays JSON.
func TestShowAnswerTable(t *testing.T) {
	md := newMarkdown(nil, nil)
	got := showAnswer(md, []map[string]any{
		{"id": "t-1", "table": "friends", "key": "Dima", "kind": "phone", "value": "111", "at": "2026-12-01T14:00:41.252600251Z"},
		{"id": "t-2", "table": "friends", "key": "Oleg", "kind": "phone", "value": "222", "at": "not a time"},
	})
	if got == nil || got.Table == nil {
		t.Fatalf("records shown as %+v, want a table", got)
	}
	// The record's id is the item's fact, not a column of the record.
	if want := []string{"table", "key", "kind", "value", "at"}; !reflect.DeepEqual(got.Table.Cols, want) {
		t.Errorf("columns %q, want %q", got.Table.Cols, want)
	}
	at := time.Date(2026, 12, 1, 14, 0, 41, 0, time.UTC).In(time.Local).Format("2006-01-02 15:04")
	if want := []string{"friends", "Dima", "phone", "111", at}; !reflect.DeepEqual(got.Table.Rows[0], want) {
		t.Errorf("row %q, want %q", got.Table.Rows[0], want)
	}
	if at := got.Table.Rows[1][4]; at != "not a time" {
		t.Errorf("a value that is not a time became %q", at)
	}
	if !reflect.DeepEqual(got.Table.NoWrap, []bool{false, false, false, false, true}) {
		t.Errorf("columns kept on one line %v, want the time only", got.Table.NoWrap)
	}
	if other := showAnswer(md, []map[string]any{{"id": "o-1", "summary": "x"}}); other == nil || other.Table == nil || other.Table.Cols[0] != "id" {
		t.Errorf("a record that is not a table row lost its id: %+v", other)
	}
	if nested := showAnswer(md, map[string]any{"months": []any{"may", "june"}}); nested == nil || nested.Table != nil || nested.JSON == "" {
		t.Errorf("a nested answer shown as %+v, want JSON", nested)
	}
}
