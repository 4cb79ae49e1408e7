package serve

import (
	"reflect"
	"testing"
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
	if want := []string{"table", "key", "kind", "value", "at", "id"}; !reflect.DeepEqual(got.Table.Cols, want) {
		t.Errorf("columns %q, want %q", got.Table.Cols, want)
	}
	if want := []string{"friends", "Dima", "phone", "111", "2026-12-01 14:00 UTC", "t-1"}; !reflect.DeepEqual(got.Table.Rows[0], want) {
		t.Errorf("row %q, want %q", got.Table.Rows[0], want)
	}
	if at := got.Table.Rows[1][4]; at != "not a time" {
		t.Errorf("a value that is not a time became %q", at)
	}
	if nested := showAnswer(md, map[string]any{"months": []any{"may", "june"}}); nested == nil || nested.Table != nil || nested.JSON == "" {
		t.Errorf("a nested answer shown as %+v, want JSON", nested)
	}
}
