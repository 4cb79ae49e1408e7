package blackbox

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The request contract: one description of the parameters the two verbs
// take — name, kind, allowed values, the words a person reads and what the
// parameter reaches — and of the input kinds memory cannot take yet (the
// doors). The CLI binds its flags from it, the parsers check enumerations
// and answer doors from it, and the playground of `memhook serve` draws its
// controls from it, so a parameter is never described twice.

// Verbs of the contract.
const (
	VerbRecall   = "recall"
	VerbRemember = "remember"
)

// Parameter kinds: how a value is written.
const (
	KindChoice   = "choice"   // one of Choices
	KindBool     = "bool"     // true or false
	KindInt      = "int"      // a whole number from Min to Max
	KindName     = "name"     // a table or kind name (whitelist, transliteration)
	KindString   = "string"   // any non-empty string
	KindValue    = "value"    // a string or a number
	KindCalendar = "calendar" // YYYY, YYYY-MM, YYYY-MM-DD or FROM..TO
	KindPlace    = "place"    // a place, matched exactly
	KindScope    = "scope"    // a list of records, each {calendar, geo}
)

// Groups say where a person meets the parameter.
const (
	GroupMain     = "main"     // beside the phrase: the ordinary run
	GroupAdvanced = "advanced" // collapsed by default
	GroupScope    = "scope"    // the list of scope records
)

// Choice is one allowed value of a choice parameter.
type Choice struct {
	Value string `json:"value"`
	Label string `json:"label"` // the word a person reads
	Hint  string `json:"hint"`  // what choosing it costs and brings
}

// Param is one parameter of one verb.
type Param struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Group   string   `json:"group"`
	Label   string   `json:"label"`
	Hint    string   `json:"hint"`    // one line: what it does (also the CLI flag's usage)
	Reaches string   `json:"reaches"` // the store or step it acts on
	Default string   `json:"default,omitempty"`
	Choices []Choice `json:"choices,omitempty"`
	Min     int      `json:"min,omitempty"`
	Max     int      `json:"max,omitempty"`
}

// Door is an input kind memory cannot take yet: a request naming it gets
// not_supported with Reason and Opens.
type Door struct {
	Name   string `json:"name"`
	Label  string `json:"label"`
	Reason string `json:"reason"` // why it is closed
	Opens  string `json:"opens"`  // what would open it
}

var calendarHint = "YYYY, YYYY-MM, YYYY-MM-DD or FROM..TO"

var recallParams = []Param{
	{Name: "depth", Kind: KindChoice, Group: GroupMain, Label: "Depth", Default: "standard",
		Hint: "how far memory may go: standard, deep or extreme", Reaches: "the levels recall may climb",
		Choices: []Choice{
			{Value: "standard", Label: "Standard", Hint: "tables, memory text, then the knowledge graph. Seconds; almost always enough."},
			{Value: "deep", Label: "Deep", Hint: "adds meaning search in the vector index. Slower and dearer: use it when standard found nothing."},
			{Value: "extreme", Label: "Extreme", Hint: "a bounded research by the model. Spends the subscription's quota: only when deep found nothing."},
		}},
	{Name: "chain", Kind: KindBool, Group: GroupAdvanced, Label: "Return the chain",
		Hint: "return the search steps with everything each level found", Reaches: "the answer's chain"},
	{Name: "relearn", Kind: KindBool, Group: GroupAdvanced, Label: "Relearn", Default: "true",
		Hint: "put a level 4–5 answer back into memory before it returns", Reaches: "levels 4 and 5"},
	{Name: "limit", Kind: KindInt, Group: GroupAdvanced, Label: "Items per level", Default: "5", Min: 1, Max: 50,
		Hint: "at most this many items per level", Reaches: "every level"},
	{Name: "table", Kind: KindName, Group: GroupAdvanced, Label: "Table",
		Hint: "level 1 looks only in this table", Reaches: "tables (level 1)"},
	{Name: "key", Kind: KindString, Group: GroupAdvanced, Label: "Key",
		Hint: "level 1 looks only at this row", Reaches: "tables (level 1)"},
	{Name: "kind", Kind: KindName, Group: GroupAdvanced, Label: "Kind",
		Hint: "level 1 looks only at this kind", Reaches: "tables (level 1)"},
	{Name: "calendar", Kind: KindCalendar, Group: GroupScope, Label: "Calendar",
		Hint: "scope: " + calendarHint, Reaches: "every level: records out of the period do not answer"},
	{Name: "geo", Kind: KindPlace, Group: GroupScope, Label: "Place",
		Hint: "scope: a place", Reaches: "every level: records for another place do not answer"},
	{Name: "thread", Kind: KindString, Group: GroupAdvanced, Label: "Thread",
		Hint: "the id of one research cycle: its calls share a history until research answers or 10 minutes pass idle", Reaches: "level 5's model calls: they are given the cycle's earlier calls"},
	{Name: "scope", Kind: KindScope, Group: GroupScope, Label: "Scope records",
		Hint: `scope as a list of records [{"calendar": …, "geo": …}]; a record answers when it fits any; or "projects": memory text also from the desk's other projects`, Reaches: "every level; \"projects\": memory text and graph (levels 2–3)"},
}

var rememberParams = []Param{
	{Name: "table", Kind: KindName, Group: GroupAdvanced, Label: "Table",
		Hint: "the table the value goes to (created when missing)", Reaches: "tables"},
	{Name: "key", Kind: KindString, Group: GroupAdvanced, Label: "Key",
		Hint: "the row: who or what the value is about", Reaches: "tables"},
	{Name: "kind", Kind: KindName, Group: GroupAdvanced, Label: "Kind",
		Hint: "the kind (column group) of the value, made when missing", Reaches: "tables"},
	{Name: "value", Kind: KindValue, Group: GroupAdvanced, Label: "Value",
		Hint: "the value (default: the text)", Reaches: "tables"},
	{Name: "claim", Kind: KindChoice, Group: GroupAdvanced, Label: "Claim", Default: "stated",
		Hint: "stated, inferred or computed", Reaches: "tables",
		Choices: []Choice{
			{Value: "stated", Label: "Stated", Hint: "a person said it"},
			{Value: "inferred", Label: "Inferred", Hint: "concluded from other facts"},
			{Value: "computed", Label: "Computed", Hint: "calculated from other values"},
		}},
	{Name: "basis", Kind: KindString, Group: GroupAdvanced, Label: "Basis",
		Hint: "what the value rests on", Reaches: "tables"},
	{Name: "list", Kind: KindName, Group: GroupAdvanced, Label: "List",
		Hint: "make the kind a list in this table and append the value", Reaches: "tables"},
	{Name: "thread", Kind: KindString, Group: GroupAdvanced, Label: "Thread",
		Hint: "the id of one research cycle: the remembered text joins its history", Reaches: "the cycle's history, for level 5 of its recalls"},
	{Name: "calendar", Kind: KindCalendar, Group: GroupScope, Label: "Calendar",
		Hint: "scope: " + calendarHint, Reaches: "the record and the table row"},
	{Name: "geo", Kind: KindPlace, Group: GroupScope, Label: "Place",
		Hint: "scope: a place", Reaches: "the record and the table row"},
}

// Doors are the input kinds the contract names but memory cannot take.
var doors = []Door{
	{Name: "photo", Label: "Photo", Reason: "memory stores and searches text; it has no image reader",
		Opens: "an image-to-text step (a vision model describing the photo) whose text is remembered, the photo kept in the object store"},
	{Name: "video", Label: "Video", Reason: "memory stores and searches text; it has no video reader",
		Opens: "a transcription and frame-description step whose text is remembered, the video kept in the object store"},
	{Name: "voice", Label: "Voice", Reason: "memory stores and searches text; it has no speech recognition",
		Opens: "a speech-to-text step whose transcript is remembered, the recording kept in the object store"},
	{Name: "document", Label: "Document", Reason: "memory takes text in the request; it does not read files given by the caller",
		Opens: "a document reader (PDF, office formats) that turns the file into text records; until then put the text in the request, or use `memhook relearn --artifact` for a result to keep"},
}

// Params is the contract of a verb, in the order a person meets them.
func Params(verb string) []Param {
	switch verb {
	case VerbRecall:
		return recallParams
	case VerbRemember:
		return rememberParams
	}
	return nil
}

// Doors are the closed input kinds, the same for both verbs.
func Doors() []Door { return doors }

// Lookup returns a verb's parameter by name.
func Lookup(verb, name string) (Param, bool) {
	for _, p := range Params(verb) {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// FlagUsages are the string flags a verb's command binds, with their usage:
// every parameter written as one string (bool and int have typed flags, the
// scope list goes through --param or --request).
func FlagUsages(verb string) map[string]string {
	out := map[string]string{}
	for _, p := range Params(verb) {
		switch p.Kind {
		case KindBool, KindInt, KindScope:
			continue
		}
		out[p.Name] = p.Hint
	}
	return out
}

// Allowed says whether value is one of a choice parameter's values.
func (p Param) Allowed(value string) bool {
	for _, c := range p.Choices {
		if c.Value == value {
			return true
		}
	}
	return false
}

// ChoiceError is the bad_form reason of a value outside the choices.
func (p Param) ChoiceError() string {
	var vs []string
	for _, c := range p.Choices {
		vs = append(vs, c.Value)
	}
	last := len(vs) - 1
	if last > 0 {
		return fmt.Sprintf("%s must be %s or %s", p.Name, strings.Join(vs[:last], ", "), vs[last])
	}
	return fmt.Sprintf("%s must be %s", p.Name, strings.Join(vs, ""))
}

// doorFate is the fate of a key the verb does not take: a door's named
// reason, or the generic unknown parameter.
func doorFate(verb, key string) Fate {
	for _, d := range doors {
		if d.Name == key {
			return unsupported(fmt.Sprintf("%s input is not supported: %s; what would open it: %s", d.Name, d.Reason, d.Opens))
		}
	}
	return unsupported("unknown parameter; it changed nothing")
}

// ScopeRecordError is a scope list's bad form, naming the record at fault
// (counted from 1, as a person numbers the cards).
type ScopeRecordError struct {
	Record int
	Reason string
}

func (e *ScopeRecordError) Error() string {
	if e.Record == 0 {
		return e.Reason
	}
	return fmt.Sprintf("record %d: %s", e.Record, e.Reason)
}

// ParseScopes reads a scope list: an array of {calendar, geo} records. A
// record with neither field is not a scope and is dropped; a record with a
// bad field fails the list, naming its number.
func ParseScopes(v json.RawMessage) ([]Scope, error) {
	var recs []map[string]json.RawMessage
	if err := json.Unmarshal(v, &recs); err != nil {
		return nil, &ScopeRecordError{Reason: `scope must be a list of records [{"calendar": "...", "geo": "..."}]`}
	}
	var out []Scope
	for i, rec := range recs {
		var sc Scope
		empty := true
		for k, fv := range rec {
			s, isStr := asString(fv)
			if !isStr {
				return nil, &ScopeRecordError{Record: i + 1, Reason: k + " must be a string"}
			}
			if s == "" {
				continue
			}
			empty = false
			switch k {
			case "calendar":
				if _, err := parseCalendar(s); err != nil {
					return nil, &ScopeRecordError{Record: i + 1, Reason: err.Error()}
				}
				sc.Calendar = s
			case "geo":
				sc.Geo = s
			default:
				return nil, &ScopeRecordError{Record: i + 1, Reason: fmt.Sprintf("%q is not a scope field (calendar, geo)", k)}
			}
		}
		if !empty {
			out = append(out, sc)
		}
	}
	return out, nil
}

// fitAny is the best fit of a record's scope among the caller's records:
// it answers when it fits any of them.
func fitAny(rec Scope, wants []Scope) string {
	best := "other"
	for _, w := range wants {
		switch fit(rec, w) {
		case "match":
			return "match"
		case "unknown":
			best = "unknown"
		}
	}
	return best
}

// contractParam is a parameter the parser knows is in the contract.
func contractParam(verb, name string) Param {
	p, ok := Lookup(verb, name)
	if !ok {
		panic("blackbox: parameter " + verb + "." + name + " is not in the contract")
	}
	return p
}

func scopeListFate(v json.RawMessage, dst *[]Scope) Fate {
	scs, err := ParseScopes(v)
	if err != nil {
		return bad("scope " + err.Error())
	}
	*dst = scs
	if len(scs) == 0 {
		return ok("no record had a calendar or a place, so there is no scope")
	}
	return ok(fmt.Sprintf("%d scope records: a record answers when it fits any of them; records without a scope are marked unknown; no inheritance between places", len(scs)))
}

// scopes are the caller's scope records; one empty record when none was
// given, which every record fits.
func (r RecallRequest) scopes() []Scope {
	out := append([]Scope(nil), r.Scopes...)
	if r.Scope != (Scope{}) || len(out) == 0 {
		out = append(out, r.Scope)
	}
	return out
}

// wanted merges the caller's records: a scope parameter counts as given
// when any record gives it.
func (r RecallRequest) wanted() Scope {
	w := r.Scope
	for _, s := range r.Scopes {
		if w.Geo == "" {
			w.Geo = s.Geo
		}
		if w.Calendar == "" {
			w.Calendar = s.Calendar
		}
	}
	return w
}
