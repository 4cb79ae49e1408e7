package blackbox

import "strings"

// Answer kinds.
const (
	KindAffirmative   = "affirmative"
	KindProbabilistic = "probabilistic"
	KindParamDep      = "parameter_dependent"
	KindNone          = "none"
)

// Levels of the ladder, ordered by price.
const (
	LevelTables   = 1
	LevelText     = 2
	LevelGraph    = 3
	LevelVector   = 4
	LevelResearch = 5
)

// Depths are the words callers use; levels stay inside.
var depthMax = map[string]int{"standard": LevelGraph, "deep": LevelVector, "extreme": LevelResearch}

var storeName = map[int]string{
	LevelTables: "tables", LevelText: "memory_text", LevelGraph: "knowledge_graph",
	LevelVector: "vector", LevelResearch: "research",
}

// Fate is what became of one parameter the caller sent.
type Fate struct {
	Fate   string `json:"fate"`             // accepted, not_supported, bad_form
	Note   string `json:"note,omitempty"`   // accepted: its effect and limit; not_supported: why
	Reason string `json:"reason,omitempty"` // bad_form: what is wrong
}

// Fates.
const (
	FateAccepted     = "accepted"
	FateNotSupported = "not_supported"
	FateBadForm      = "bad_form"
)

// Item is one result: a fact offered as an answer. ID names the inference
// "this fact answers this question"; denying it withholds the inference
// and keeps the fact.
type Item struct {
	ID     string  `json:"id"`
	Fact   string  `json:"fact"`
	Level  int     `json:"level"`
	Store  string  `json:"store"`
	Text   string  `json:"text,omitempty"`
	Data   any     `json:"data,omitempty"`
	Object string  `json:"object,omitempty"`
	Cite   string  `json:"cite,omitempty"`
	Scope  Scope   `json:"scope"`
	Fit    string  `json:"fit,omitempty"` // "unknown" when the record has no scope where the caller gave one
	Score  float64 `json:"score,omitempty"`
	// Project is the registry id of another project the item comes from
	// (scope "projects"): not this project's memory.
	Project string `json:"project,omitempty"`
	// Claim is what the inference asserts (the question's entities); a
	// denial holds against it.
	Claim *Claim `json:"claim,omitempty"`

	// whole is the whole section a passage comes from (its Text is the
	// part around the question's words): what a denied conclusion is
	// looked for in.
	whole string
}

// concludes reports whether an item states a conclusion memory drew: a
// relearned summary (it points to its object) or a research answer. A
// denied conclusion is withheld wherever such an item carries it; a
// fact the person gave is not.
func (it Item) concludes() bool {
	return it.Object != "" || strings.HasPrefix(it.Fact, "s-") || strings.HasPrefix(it.Fact, "x-")
}

// Statuses of a StoreReport.
const (
	StatusAnswered = "answered"
	StatusEmpty    = "empty"
	StatusSkipped  = "skipped"
	StatusError    = "error"
)

// StoreReport is what one store returned.
type StoreReport struct {
	Level    int    `json:"level"`
	Store    string `json:"store"`
	Status   string `json:"status"` // answered, empty, skipped, error
	Returned int    `json:"returned"`
	Kind     string `json:"kind,omitempty"`
	Denied   int    `json:"denied,omitempty"`
	OutScope int    `json:"out_of_scope,omitempty"`
	Note     string `json:"note,omitempty"`
}

// Missing names a parameter the answer depends on and why.
type Missing struct {
	Param  string   `json:"param"`
	Why    string   `json:"why"`
	Values []string `json:"values,omitempty"`
}

// Step is one search step, returned only when the caller asks for the chain.
type Step struct {
	Level int    `json:"level"`
	Store string `json:"store"`
	Query string `json:"query"`
	Found []Item `json:"found"`
	Note  string `json:"note,omitempty"`
}

// RecallAnswer is the object recall returns.
type RecallAnswer struct {
	Answer         any             `json:"answer"`
	Kind           string          `json:"kind"`
	Items          []Item          `json:"items"`
	DepthRequested string          `json:"depth_requested"`
	DepthUsed      int             `json:"depth_used"`
	Report         []StoreReport   `json:"report"`
	Params         map[string]Fate `json:"params"`
	Missing        []Missing       `json:"missing,omitempty"`
	Chain          []Step          `json:"chain,omitempty"`
	// Relearned carries every id the relearn cycle made after a level 4–5
	// answer; Relearn says why it did not run (opted out, nested, failed).
	Relearned *RelearnResult `json:"relearned,omitempty"`
	Relearn   string         `json:"relearn,omitempty"`
	// Thread is the research cycle this call belongs to, when it named one.
	Thread *ThreadState `json:"thread,omitempty"`

	asked []string // the research walk's rephrasings, for the relearned page
}

// Stored is what one store received from remember.
type Stored struct {
	Store string `json:"store"`
	ID    string `json:"id,omitempty"`
	Path  string `json:"path,omitempty"`
	Table string `json:"table,omitempty"`
	What  string `json:"what"`
}

// RememberAnswer is the object remember returns.
type RememberAnswer struct {
	Stores            []Stored        `json:"stores"`
	TablesCreated     []string        `json:"tables_created"`
	KindsCreated      []string        `json:"kinds_created"`
	NewTablesWithRows []string        `json:"new_tables_with_rows"`
	Params            map[string]Fate `json:"params"`
	// Shape says which rule put the phrase into tables (or that none
	// could), when the caller named no table.
	Shape *ShapeNote `json:"shape,omitempty"`
	// Thread is the research cycle this call belongs to, when it named one.
	Thread *ThreadState `json:"thread,omitempty"`
	// Error is set when a store failed after others had received the
	// text: what was stored is still listed.
	Error string `json:"error,omitempty"`
}
