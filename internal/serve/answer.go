package serve

import (
	"encoding/json"
	"fmt"
	"html/template"
	"sort"
	"strings"
	"time"
)

// shownAnswer is a recall answer as a person reads it: text as rendered
// Markdown, a list of records as a table, an object by its id with its
// summary, anything else as indented JSON. The raw object stays beside it.
type shownAnswer struct {
	HTML   template.HTML
	Table  *dataTable
	Object string
	JSON   string
}

// dataTable is rows of flat records under the union of their fields.
type dataTable struct {
	Cols   []string
	NoWrap []bool // a column kept on one line: a time
	Rows   [][]string
}

func showAnswer(md *markdown, a any) *shownAnswer {
	switch v := a.(type) {
	case nil:
		return nil
	case string:
		if strings.TrimSpace(v) == "" {
			return nil
		}
		return &shownAnswer{HTML: md.render(v)}
	case map[string]string:
		if sum, ok := v["summary"]; ok {
			return &shownAnswer{HTML: md.render(sum), Object: v["object"]}
		}
	}
	// Through JSON: a table cell, a list of them, a breakdown.
	b, err := json.Marshal(a)
	if err != nil {
		return &shownAnswer{JSON: fmt.Sprint(a)}
	}
	var rows []map[string]any
	if json.Unmarshal(b, &rows) == nil && len(rows) > 0 {
		if t := flatTable(rows); t != nil {
			return &shownAnswer{Table: t}
		}
	}
	var one map[string]any
	if json.Unmarshal(b, &one) == nil && len(one) > 0 {
		if t := flatTable([]map[string]any{one}); t != nil {
			return &shownAnswer{Table: t}
		}
	}
	out, _ := json.MarshalIndent(a, "", "  ")
	return &shownAnswer{JSON: string(out)}
}

// flatTable lays out records whose fields are all scalars; nil when one
// holds a list or an object (then JSON says it better).
func flatTable(rows []map[string]any) *dataTable {
	order := []string{"table", "key", "kind", "value", "claim", "basis", "calendar", "geo", "at"}
	rank := map[string]int{}
	for i, k := range order {
		rank[k] = i
	}
	seen := map[string]bool{}
	var cols []string
	for _, r := range rows {
		for k, v := range r {
			switch v.(type) {
			case map[string]any, []any:
				if m, ok := v.(map[string]any); ok && len(m) == 0 {
					continue // an empty scope says nothing
				}
				return nil
			}
			// A record's id is the item's fact, shown with the item and
			// in the raw object; in the table it only pushed the record's
			// own values behind a scroll bar.
			if !seen[k] && (k != "id" || r["table"] == nil) {
				seen[k] = true
				cols = append(cols, k)
			}
		}
	}
	sort.SliceStable(cols, func(i, j int) bool {
		ri, oki := rank[cols[i]]
		rj, okj := rank[cols[j]]
		switch {
		case oki && okj:
			return ri < rj
		case oki != okj:
			return oki
		}
		return cols[i] < cols[j]
	})
	t := &dataTable{Cols: cols}
	for _, c := range cols {
		t.NoWrap = append(t.NoWrap, c == "at")
	}
	for _, r := range rows {
		var row []string
		for _, c := range cols {
			switch v := r[c].(type) {
			case nil:
				row = append(row, "")
			case string:
				row = append(row, cell(c, v))
			case map[string]any:
				row = append(row, "")
			default:
				row = append(row, fmt.Sprint(v))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// cell is a record's value as a person reads it: a time to the minute in
// the clock of the machine the page is served on (its nanoseconds widened
// the table past its box); the raw object beside it keeps the exact value.
func cell(col, v string) string {
	if col == "at" {
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return t.In(time.Local).Format("2006-01-02 15:04")
		}
	}
	return v
}
