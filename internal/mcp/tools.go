package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/hint"
	"github.com/cerebro-mem/cerebro/internal/recall/blackbox"
	"github.com/cerebro-mem/cerebro/internal/search"
	"github.com/cerebro-mem/cerebro/internal/text/inert"
	"github.com/cerebro-mem/cerebro/internal/text/private"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names, as the model sees them after Claude Code's prefix
// (mcp__plugin_cerebro_memory__<name>).
const (
	ToolSearch   = "memory_search"
	ToolGet      = "memory_get"
	ToolRecall   = "recall"
	ToolRemember = "remember"
)

// Scopes memory_search takes: an enumeration. projects and everything
// reach the desk's other registered projects; only when the model asks,
// never by default.
var Scopes = []search.Scope{search.ScopeProject, search.ScopeOrg, search.ScopeAll, search.ScopeProjects, search.ScopeEverything}

// SearchArgs are memory_search's arguments.
type SearchArgs struct {
	Query string `json:"query"`
	Scope string `json:"scope,omitempty"`
	K     int    `json:"k,omitempty"`
	Since string `json:"since,omitempty"`
	Until string `json:"until,omitempty"`
}

// GetArgs are memory_get's arguments.
type GetArgs struct {
	Path  string `json:"path"`
	From  int    `json:"from,omitempty"`
	Lines int    `json:"lines,omitempty"`
}

// The descriptions say when to call each tool: the model reads them in
// every request, so each is one or two sentences (see [ListCost]).
const (
	searchDesc = "Search memory (past sessions' daily notes, wiki, CORE, org vault) by words; cited passages path#Lstart-Lend. " +
		"Call it before answering about earlier work or decisions."
	getDesc      = "Read a memory file, or lines of it, by a path memory_search cited, when a snippet is not enough."
	recallDesc   = "Ask memory a question: one answer object (what was found, how sure, each parameter's fate). Call it for a fact, value or decision you need."
	rememberDesc = "Store a fact in memory (a record; with table and key a table row too). Call it when the person asks you to remember something."
)

func ptr[T any](v T) *T { return &v }

// closed refuses keys a tool does not take (it marshals as false): a
// misnamed argument is an error the model can correct, not a silent
// default.
var closed = &jsonschema.Schema{Not: &jsonschema.Schema{}}

func (s *Server) addTools() {
	var scopes []any
	for _, sc := range Scopes {
		scopes = append(scopes, string(sc))
	}
	day := "YYYY-MM-DD"
	sdk.AddTool(s.srv, &sdk.Tool{
		Name: ToolSearch, Description: searchDesc,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
		InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"query"}, AdditionalProperties: closed, Properties: map[string]*jsonschema.Schema{
			"query": {Type: "string"},
			"scope": {Type: "string", Enum: scopes, Description: "default all (project and org); projects: every registered project, cited id:path"},
			"k":     {Type: "integer", Minimum: ptr(1.0), Maximum: ptr(50.0), Description: "results, default 10"},
			"since": {Type: "string", Description: "notes dated from " + day},
			"until": {Type: "string", Description: "notes dated up to " + day},
		}},
	}, s.search)
	sdk.AddTool(s.srv, &sdk.Tool{
		Name: ToolGet, Description: getDesc,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
		InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"path"}, AdditionalProperties: closed, Properties: map[string]*jsonschema.Schema{
			"path":  {Type: "string"},
			"from":  {Type: "integer", Minimum: ptr(1.0), Description: "first line, default 1"},
			"lines": {Type: "integer", Minimum: ptr(0.0), Description: "default: to the end"},
		}},
	}, s.get)
	// recall and remember take the black box's request object as it is,
	// so that every key gets its fate (docs/blackbox.md) as on the command
	// line: the schema guides the model, the contract judges the request.
	s.srv.AddTool(&sdk.Tool{
		Name: ToolRecall, Description: recallDesc,
		// Not read-only: a level 4–5 answer is put back into memory
		// (relearn) unless the request says relearn false.
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(false), IdempotentHint: true},
		InputSchema: requestSchema(blackbox.VerbRecall),
	}, s.verb(ToolRecall))
	s.srv.AddTool(&sdk.Tool{
		Name: ToolRemember, Description: rememberDesc,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(false), IdempotentHint: false},
		InputSchema: requestSchema(blackbox.VerbRemember),
	}, s.verb(ToolRemember))
}

// requestSchema is a verb's request object drawn from the black box's
// contract (blackbox.Params), so a parameter is defined once: the text,
// then each parameter with its type and values. Only the hints a name
// does not already say are kept (every word is paid in every request).
// Other keys are allowed: they get the fate not_supported, as on the
// command line.
func requestSchema(verb string) *jsonschema.Schema {
	props := map[string]*jsonschema.Schema{"text": {Type: "string"}}
	for _, p := range blackbox.Params(verb) {
		sc := &jsonschema.Schema{Description: schemaHints[p.Name]}
		switch p.Kind {
		case blackbox.KindChoice:
			sc.Type = "string"
			for _, c := range p.Choices {
				sc.Enum = append(sc.Enum, c.Value)
			}
		case blackbox.KindBool:
			sc.Type = "boolean"
		case blackbox.KindInt:
			sc.Type, sc.Minimum, sc.Maximum = "integer", ptr(float64(p.Min)), ptr(float64(p.Max))
		case blackbox.KindValue:
			sc.Types = []string{"string", "number"}
		case blackbox.KindScope:
			sc.Type = "array"
			sc.Items = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
				"calendar": {Type: "string"}, "geo": {Type: "string"},
			}}
		default:
			sc.Type = "string"
		}
		if p.Name == "calendar" {
			sc.Description = p.Hint
		}
		props[p.Name] = sc
	}
	return &jsonschema.Schema{Type: "object", Required: []string{"text"}, Properties: props}
}

// schemaHints are the few parameter hints the tools' schemas carry, in
// the contract's words where they fit a schema.
var schemaHints = map[string]string{
	"depth": "deep and extreme cost more; extreme calls a model",
	"chain": "return the search steps",
	"scope": "records; an item answers when it fits any",
	"value": "default: the text",
	"list":  "make the kind a list in this table",
}

func (s *Server) search(ctx context.Context, _ *sdk.CallToolRequest, a SearchArgs) (*sdk.CallToolResult, any, error) {
	v, err := s.call(ctx, ToolSearch, s.opts.Deadlines.Read, func(ctx context.Context) (any, error) {
		if strings.TrimSpace(a.Query) == "" {
			return nil, errors.New("empty query: give the words to search for")
		}
		scope := search.DefaultScope
		if a.Scope != "" {
			sc, err := search.ParseScope(a.Scope)
			if err != nil {
				return nil, err
			}
			scope = sc
		}
		k := a.K
		if k == 0 {
			k = 10
		}
		within, err := search.ParsePeriod(a.Since, a.Until)
		if err != nil {
			return nil, err
		}
		m, err := s.opts.Backend.Memory(scope)
		if err != nil {
			return nil, err
		}
		resp, err := m.Query(ctx, a.Query, k, s.opts.Backend.Now(), within)
		if err != nil {
			return nil, err
		}
		return resp, nil
	})
	return s.result(v, err), nil, nil
}

func (s *Server) get(ctx context.Context, _ *sdk.CallToolRequest, a GetArgs) (*sdk.CallToolResult, any, error) {
	v, err := s.call(ctx, ToolGet, s.opts.Deadlines.Read, func(ctx context.Context) (any, error) {
		from := a.From
		if from == 0 {
			from = 1
		}
		scope := search.DefaultScope
		if id, _, ok := strings.Cut(a.Path, ":"); ok && id != "" && !strings.ContainsAny(id, `/\`) {
			scope = search.ScopeEverything // another project's id:path, read through the desk
		}
		m, err := s.opts.Backend.Memory(scope)
		if err != nil {
			return nil, err
		}
		got, err := m.Get(a.Path, from, a.Lines)
		if err != nil {
			return nil, err
		}
		return got, nil
	})
	return s.result(v, err), nil, nil
}

// verb is recall's or remember's handler: the arguments are the request
// object, decoded as `--request -` decodes it.
func (s *Server) verb(tool string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		raw, err := blackbox.DecodeRaw(orEmpty(req.Params.Arguments))
		if err == nil && tool == ToolRemember {
			err = stripPrivate(raw)
		}
		if err != nil {
			return s.result(nil, err), nil
		}
		deadline := s.opts.Deadlines.Remember
		run := s.opts.Backend.Remember
		if tool == ToolRecall {
			run, deadline = s.opts.Backend.Recall, s.opts.Deadlines.Recall
			var depth string
			if json.Unmarshal(raw["depth"], &depth) == nil && depth == "extreme" {
				deadline = s.opts.Deadlines.Extreme
			}
		}
		v, err := s.call(ctx, tool, deadline, func(ctx context.Context) (any, error) { return run(ctx, raw) })
		return s.result(v, err), nil
	}
}

// stripPrivate withholds what the caller marked <private> in every
// string of a remember request, as the capture hooks do for a prompt: a
// model may pass on the person's words as they were typed. A text that
// was private and nothing else is refused rather than stored as a marker.
func stripPrivate(raw blackbox.Raw) error {
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) != nil || !private.Has(s) {
			continue
		}
		kept := private.Strip(s)
		if k == "text" && strings.TrimSpace(strings.ReplaceAll(kept, private.Marker, "")) == "" {
			return errors.New("remember: the text is all <private>: nothing to store")
		}
		b, err := json.Marshal(kept)
		if err != nil {
			return fmt.Errorf("remember: withhold the private part of %s: %w", k, err)
		}
		raw[k] = b
	}
	return nil
}

func orEmpty(b json.RawMessage) []byte {
	if len(bytes.TrimSpace(b)) == 0 {
		return []byte("{}")
	}
	return b
}

// result is a call's answer as the model reads it: the object as compact
// JSON, the command line's encoding (no HTML escaping), made inert as the
// inject makes a note (a remembered "</memory><system-reminder>" is text,
// not a tag, and the JSON stays valid: only string contents hold "<" or
// "&"); an error is the
// object {"error": ..., "hint": ...} marked as an error, and a partial
// write is its answer marked so.
func (s *Server) result(v any, err error) *sdk.CallToolResult {
	r := &sdk.CallToolResult{}
	if err != nil {
		r.IsError = true
		if v == nil {
			e := map[string]string{"error": err.Error()}
			if h := hint.Of(err); h != "" {
				e["hint"] = h
			}
			v = e
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if encErr := enc.Encode(v); encErr != nil {
		r.IsError = true
		b.Reset()
		fmt.Fprintf(&b, `{"error": %q}`, "encode the answer: "+encErr.Error())
	}
	if b.Len() > s.opts.MaxAnswerBytes {
		// Refused whole rather than cut: a cut object is not JSON.
		n := b.Len()
		r.IsError = true
		b.Reset()
		fmt.Fprintf(&b, `{"error": %q}`, fmt.Sprintf("the answer is %d bytes, over the %d a call may answer with; ask for less (memory_get with from and lines, memory_search with a smaller k)", n, s.opts.MaxAnswerBytes))
	}
	r.Content = []sdk.Content{&sdk.TextContent{Text: inert.Text(strings.TrimRight(b.String(), "\n"))}}
	return r
}
