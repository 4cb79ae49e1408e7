package blackbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

// RememberRequest is a decoded remember.
type RememberRequest struct {
	Text  string
	Scope Scope
	Table string
	Key   string
	Kind  string
	Value string
	Claim string
	Basis string
	List  string
	// Thread names the research cycle this remember belongs to.
	Thread string
	// Shape lets the deterministic rules put the phrase into tables; it
	// is off when the caller sent any table parameter (theirs wins).
	Shape bool
}

var tableParams = map[string]bool{"key": true, "kind": true, "value": true, "claim": true, "basis": true, "list": true}

// ParseRemember decodes a remember request; every key but the text gets a
// fate.
func ParseRemember(r Raw) (RememberRequest, map[string]Fate, error) {
	text, err := r.text()
	if err != nil {
		return RememberRequest{}, nil, err
	}
	req := RememberRequest{Text: text}
	fates := map[string]Fate{}
	for k, v := range r {
		if k == "text" || k == "query" {
			continue
		}
		if f, isScope := scopeFate(k, v, &req.Scope); isScope {
			if f.Fate == "" {
				f = ok("stored as the record's " + k + " scope; it is not widened (no inheritance)")
			}
			fates[k] = f
			continue
		}
		switch k {
		case "table", "kind", "list":
			dst := map[string]*string{"table": &req.Table, "kind": &req.Kind, "list": &req.List}[k]
			f := nameFate(k, v, dst)
			if f.Fate == "" {
				f = ok(map[string]string{
					"table": "the value goes to this table (created when missing)",
					"kind":  "the value goes to this kind (its columns are made when missing)",
					"list":  "the kind becomes a list in this table (made when missing, the old value moved with its own time) and the value is appended",
				}[k])
			}
			fates[k] = f
		case "key", "basis":
			s, isStr := asString(v)
			if !isStr || s == "" {
				fates[k] = bad(k + " must be a non-empty string")
				continue
			}
			*map[string]*string{"key": &req.Key, "basis": &req.Basis}[k] = s
			fates[k] = ok(map[string]string{"key": "the row the value belongs to", "basis": "stored beside the value"}[k])
		case "value":
			var n json.Number
			if s, isStr := asString(v); isStr && s != "" {
				req.Value = s
			} else if json.Unmarshal(v, &n) == nil {
				req.Value = n.String()
			} else {
				fates[k] = bad("value must be a string or a number")
				continue
			}
			fates[k] = ok("written as given")
		case "claim":
			s, _ := asString(v)
			if p := contractParam(VerbRemember, k); !p.Allowed(s) {
				fates[k] = bad(p.ChoiceError())
				continue
			}
			req.Claim = s
			fates[k] = ok("stored as the value's claim kind")
		case "thread":
			fates[k] = threadFate(v, &req.Thread)
		default:
			fates[k] = doorFate(VerbRemember, k)
		}
	}
	// Table parameters only mean something together: a refused kind or
	// list stops the table write rather than put the value somewhere the
	// caller did not ask for.
	for _, k := range []string{"kind", "list"} {
		if f, sent := fates[k]; sent && f.Fate == FateBadForm && req.Table != "" {
			fates["table"] = bad("no table write: " + k + " is bad_form (" + f.Reason + ")")
			req.Table = ""
		}
	}
	if req.Table != "" && req.Key == "" {
		fates["table"] = bad("a table write needs key (the row the value is about)")
		req.Table = ""
	}
	if req.Table == "" {
		for k := range tableParams {
			if f, sent := fates[k]; sent && f.Fate == FateAccepted {
				fates[k] = bad(k + " needs a usable table")
			}
		}
	}
	req.Shape = true
	for k := range fates {
		if k == "table" || tableParams[k] {
			req.Shape = false
		}
	}
	if req.Table != "" && req.Kind == "" {
		req.Kind = "value"
		fates["table"] = ok("the value goes to this table (created when missing); no kind given, so kind \"value\"")
	}
	return req, fates, nil
}

// Remember stores the text as a record in the memory text and, when the
// caller named a table, the value in the relational store; with a thread,
// the text joins the history of that research cycle.
func (b *Box) Remember(ctx context.Context, req RememberRequest, fates map[string]Fate, now time.Time) (*RememberAnswer, error) {
	ans, err := b.remember(ctx, req, fates, now)
	if req.Thread != "" && ans != nil {
		b.threadCall(ans.Params, &ans.Thread, req.Thread, threadEntry{Verb: VerbRemember, Text: req.Text, At: now}, false, now)
	} else if b.ThreadsDir != "" {
		b.sweepThreads(now, "") // a cycle nobody continues ends here too
	}
	return ans, err
}

func (b *Box) remember(ctx context.Context, req RememberRequest, fates map[string]Fate, now time.Time) (*RememberAnswer, error) {
	ans := &RememberAnswer{Stores: []Stored{}, TablesCreated: []string{}, KindsCreated: []string{}, NewTablesWithRows: []string{}, Params: fates}
	id, rel, err := writeRecord(b.LongDir, req.Text, req.Scope, now)
	if err != nil {
		return nil, err
	}
	ans.Stores = append(ans.Stores, Stored{Store: "memory_text", ID: id, Path: ".claude/memory_long/" + rel, What: "the text as a record" + scopeWords(req.Scope)})
	b.chronicle(now, "remember", fmt.Sprintf("%s in %s%s", id, rel, tableWords(req)))
	if req.Table == "" {
		if req.Shape {
			return ans, b.shapeTables(ans, req, id, now)
		}
		return ans, nil
	}
	if b.Tables == nil {
		return ans, fmt.Errorf("remember: no relational store")
	}
	table, how := b.nameTable(ctx, req.Table, req.Text)
	if f, sent := ans.Params["table"]; sent && how != "" {
		f.Note += how
		ans.Params["table"] = f
	}
	t, created, err := b.Tables.Create(table, now)
	if err != nil {
		return ans, fmt.Errorf("remember: create table: %w", err)
	}
	if created {
		ans.TablesCreated = append(ans.TablesCreated, t)
	}
	_, k, kc, err := b.Tables.NewKind(t, req.Kind, now)
	if err != nil {
		return ans, fmt.Errorf("remember: make kind: %w", err)
	}
	if kc {
		ans.KindsCreated = append(ans.KindsCreated, t+"."+k)
	}
	basis := req.Basis
	if basis == "" {
		basis = "record " + id
	}
	v := tables.Value{Key: req.Key, Value: req.Value, Claim: req.Claim, Basis: basis, Calendar: req.Scope.Calendar, Geo: req.Scope.Geo}
	if v.Value == "" {
		v.Value = req.Text
	}
	if req.List == "" {
		c, err := b.Tables.Write(t, k, v, now)
		if err != nil {
			return ans, fmt.Errorf("remember: write value: %w", err)
		}
		ans.Stores = append(ans.Stores, Stored{Store: "tables", ID: c.ID, Table: t, What: fmt.Sprintf("value written in place at %s.%s[%s]", t, k, req.Key)})
		if created {
			ans.NewTablesWithRows = append(ans.NewTablesWithRows, t)
		}
		return ans, nil
	}
	l, lc, err := b.Tables.Promote(t, k, req.List, req.Key, req.Scope.Calendar, req.Scope.Geo, now)
	if err != nil {
		return ans, fmt.Errorf("remember: promote to list: %w", err)
	}
	c, err := b.Tables.Append(l, v, now)
	if err != nil {
		return ans, fmt.Errorf("remember: append to list: %w", err)
	}
	what := "value appended to the list " + l
	if lc {
		ans.TablesCreated = append(ans.TablesCreated, l)
		ans.NewTablesWithRows = append(ans.NewTablesWithRows, l)
		what = fmt.Sprintf("%s.%s became the list %s (any previous value moved with its own time); value appended", t, k, l)
	}
	ans.Stores = append(ans.Stores, Stored{Store: "tables", ID: c.ID, Table: l, What: what})
	return ans, nil
}

func scopeWords(s Scope) string {
	var p []string
	if s.Calendar != "" {
		p = append(p, "calendar "+s.Calendar)
	}
	if s.Geo != "" {
		p = append(p, "geo "+s.Geo)
	}
	if len(p) == 0 {
		return " (no scope: where and when unknown)"
	}
	return " (scope: " + strings.Join(p, ", ") + ")"
}

func tableWords(req RememberRequest) string {
	if req.Table == "" {
		return ""
	}
	return fmt.Sprintf("; table %s, key %s", req.Table, req.Key)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
