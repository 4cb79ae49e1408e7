package blackbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/recall/tables"
)

// Raw is a request as the caller sent it: the text under "text" (or
// "query") and every other key a parameter that gets a fate.
type Raw map[string]json.RawMessage

// DecodeRaw reads a JSON request object.
func DecodeRaw(data []byte) (Raw, error) {
	var r Raw
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("read request: want one JSON object: %w", err)
	}
	if r == nil {
		return nil, errors.New("read request: want one JSON object, got null")
	}
	return r, nil
}

// ErrNoText means the request carried no text to remember or recall.
var ErrNoText = errors.New("the request has no text (give it as the argument or as \"text\")")

func (r Raw) text() (string, error) {
	for _, k := range []string{"text", "query"} {
		if v, ok := r[k]; ok {
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return "", fmt.Errorf("%q must be a string", k)
			}
			if strings.TrimSpace(s) != "" {
				return s, nil
			}
		}
	}
	return "", ErrNoText
}

func asString(v json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return strings.TrimSpace(s), true
}

func asBool(v json.RawMessage) (bool, bool) {
	var b bool
	return b, json.Unmarshal(v, &b) == nil
}

func asInt(v json.RawMessage) (int, bool) {
	var f float64
	if json.Unmarshal(v, &f) != nil || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

func bad(reason string) Fate    { return Fate{Fate: FateBadForm, Reason: reason} }
func ok(note string) Fate       { return Fate{Fate: FateAccepted, Note: note} }
func unsupported(n string) Fate { return Fate{Fate: FateNotSupported, Note: n} }

// Caps are what this memory can do now; accepted notes name the limits.
type Caps struct {
	Vector          bool   // a level-4 searcher is wired
	VectorWhy       string // why not, when it is not
	Research        bool   // a level-5 researcher is wired
	ResearchWhy     string // why not, when it is not ("": no claude command)
	ResearchCalls   int
	ResearchSeconds int
	Nested          bool   // this call runs inside level 5 of another recall
	Across          bool   // a level-2 searcher across the desk's projects is wired
	AcrossWhy       string // why not, when it is not
}

// RecallRequest is a decoded recall.
type RecallRequest struct {
	// Relearn puts a level 4–5 answer back before it returns (default
	// true); false opts out.
	Relearn bool

	Query string
	Depth string
	Chain bool
	Scope Scope
	Table string
	Key   string
	Kind  string
	Limit int
	// Scopes is the scope as a list of records (the "scope" parameter); an
	// item answers when it fits any of them or Scope.
	Scopes []Scope
	// Thread names the research cycle this recall belongs to; history is
	// that cycle's earlier calls, given to level 5's model calls.
	Thread  string
	history []threadEntry
	// Across is the "scope" parameter given as "projects": memory text
	// (level 2) also searches the desk's other registered projects.
	Across bool
}

// shared fates for scope and table names, used by both verbs.
func scopeFate(k string, v json.RawMessage, sc *Scope) (Fate, bool) {
	switch k {
	case "calendar":
		s, isStr := asString(v)
		if !isStr || s == "" {
			return bad("calendar must be a non-empty string: YYYY, YYYY-MM, YYYY-MM-DD or FROM..TO"), true
		}
		if _, err := parseCalendar(s); err != nil {
			return bad(err.Error()), true
		}
		sc.Calendar = s
		return Fate{}, true
	case "geo":
		s, isStr := asString(v)
		if !isStr || s == "" {
			return bad("geo must be a non-empty string naming a place"), true
		}
		sc.Geo = s
		return Fate{}, true
	}
	return Fate{}, false
}

func nameFate(k string, v json.RawMessage, dst *string) Fate {
	s, isStr := asString(v)
	if !isStr || s == "" {
		return bad(k + " must be a non-empty string")
	}
	check := tables.Normalize
	if k == "kind" {
		check = tables.CheckKind
	}
	if _, err := check(s); err != nil {
		return bad(err.Error())
	}
	*dst = s
	return Fate{}
}

// ParseRecall decodes a recall request; every key but the text gets a fate.
func ParseRecall(r Raw, caps Caps) (RecallRequest, map[string]Fate, error) {
	q, err := r.text()
	if err != nil {
		return RecallRequest{}, nil, err
	}
	req := RecallRequest{Query: q, Depth: "standard", Limit: 5, Relearn: true}
	fates := map[string]Fate{}
	for k, v := range r {
		if k == "text" || k == "query" {
			continue
		}
		if f, isScope := scopeFate(k, v, &req.Scope); isScope {
			if f.Fate == "" {
				if k == "geo" {
					f = ok("records for this exact place answer; records without a place are marked unknown; no inheritance between places")
				} else {
					f = ok("records whose calendar overlaps it answer; records without a calendar are marked unknown")
				}
			}
			fates[k] = f
			continue
		}
		switch k {
		case "depth":
			s, _ := asString(v)
			max, p := depthMax[s], contractParam(VerbRecall, k)
			if !p.Allowed(s) {
				fates[k] = bad(p.ChoiceError())
				continue
			}
			req.Depth = s
			fates[k] = ok(depthNote(s, max, caps))
		case "chain":
			b, isBool := asBool(v)
			if !isBool {
				fates[k] = bad("chain must be true or false")
				continue
			}
			req.Chain = b
			fates[k] = ok(map[bool]string{true: "the search steps are returned in chain", false: "no chain returned"}[b])
		case "relearn":
			v, isBool := asBool(v)
			if !isBool {
				fates[k] = bad("relearn must be true or false")
				continue
			}
			req.Relearn = v
			fates[k] = ok(map[bool]string{
				true:  "a level 4–5 answer is relearned before it returns (object, summary page, graph link, link table when it exists): the same question costs level 2–3 next time",
				false: "a level 4–5 answer is not relearned: the same question will pay level 4–5 again",
			}[v])
		case "table", "kind":
			dst := &req.Table
			if k == "kind" {
				dst = &req.Kind
			}
			f := nameFate(k, v, dst)
			if f.Fate == "" {
				f = ok("level 1 looks only in this " + map[string]string{"table": "table", "kind": "kind (column)"}[k])
			}
			fates[k] = f
		case "key":
			s, isStr := asString(v)
			if !isStr || s == "" {
				fates[k] = bad("key must be a non-empty string")
				continue
			}
			req.Key = s
			fates[k] = ok("level 1 looks only at rows with this key (case-insensitive, exact)")
		case "limit":
			n, isInt := asInt(v)
			if p := contractParam(VerbRecall, k); !isInt || n < p.Min || n > p.Max {
				fates[k] = bad(fmt.Sprintf("limit must be a whole number from %d to %d", p.Min, p.Max))
				continue
			}
			req.Limit = n
			fates[k] = ok(fmt.Sprintf("at most %d items per level", n))
		case "thread":
			fates[k] = threadFate(v, &req.Thread)
		case "lang":
			fates[k] = unsupported("answers are the stored records in the language they were written in")
		case "scope":
			if s, isStr := asString(v); isStr {
				fates[k] = reachFate(s, caps, &req.Across)
				continue
			}
			fates[k] = scopeListFate(v, &req.Scopes)
		default:
			fates[k] = doorFate(VerbRecall, k)
		}
	}
	return req, fates, nil
}

func depthNote(depth string, max int, caps Caps) string {
	note := map[string]string{
		"standard": "levels 1–3: tables, memory text, knowledge graph",
		"deep":     "levels 1–4: adds vector search",
		"extreme":  "levels 1–5: adds bounded research by claude -p",
	}[depth]
	if max >= LevelVector && !caps.Vector {
		note += "; level 4 unavailable: " + caps.VectorWhy
	}
	if max >= LevelResearch {
		switch {
		case caps.Nested:
			note += "; level 5 never runs inside another recall's research (CEREBRO_NESTED)"
		case !caps.Research:
			note += "; level 5 unavailable: " + caps.researchWhy()
		default:
			note += fmt.Sprintf("; level 5 budget: %d calls, %d seconds", caps.ResearchCalls, caps.ResearchSeconds)
		}
	}
	return note + "; a level is climbed only when the one below gave nothing"
}

func (c Caps) researchWhy() string {
	if c.ResearchWhy != "" {
		return c.ResearchWhy
	}
	return "no claude command"
}

// reachFate reads the "scope" parameter given as a word: which projects'
// memory text answers. Only projects reaches further than this one, and
// only when asked.
func reachFate(s string, caps Caps, across *bool) Fate {
	switch s {
	case "project":
		return ok("this project's memory only (the default)")
	case "projects":
		if !caps.Across {
			return unsupported("no desk of other projects to search: " + caps.acrossWhy())
		}
		*across = true
		return ok("memory text (level 2) and the knowledge graph (level 3) also answer from the desk's other registered projects that share their memory; what comes from another project is cited id:path#Lstart-Lend and its item names the project; tables and levels 4–5 stay this project's")
	}
	return bad(`scope must be "project", "projects" or a list of records [{"calendar": "...", "geo": "..."}]`)
}

func (c Caps) acrossWhy() string {
	if c.AcrossWhy != "" {
		return c.AcrossWhy
	}
	return "not wired"
}
