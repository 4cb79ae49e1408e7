// Package planfact reads, checks and edits a project's План-факт.md: the
// machine-readable plan-versus-fact status that the org rollup reads. Its
// frontmatter is a contract; [Parse] reports every breach with the line it
// is on, and [Set] changes one field without touching anything else.
package planfact

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/cerebro-mem/cerebro/internal/text/frontmatter"
	"gopkg.in/yaml.v3"
)

// FileName is the plan-fact file inside a project's long-term memory.
const FileName = "План-факт.md"

// The allowed values of plan_status and status.
var (
	PlanStatuses = []string{"on_track", "at_risk", "blocked", "done"}
	Statuses     = []string{"active", "paused", "completed"}
)

// Fields lists the contract's keys in their canonical order.
var Fields = []string{"type", "project", "stage", "plan_status", "status", "next", "blockers", "summary", "updated", "completed"}

// PlanFact is the decoded frontmatter.
type PlanFact struct {
	Project    string   `json:"project"`
	Stage      string   `json:"stage"`
	PlanStatus string   `json:"plan_status"`
	Status     string   `json:"status"`
	Next       string   `json:"next"`
	Blockers   []string `json:"blockers"`
	Summary    string   `json:"summary"`
	Updated    string   `json:"updated"`
	Completed  string   `json:"completed,omitempty"`
}

// Problem is one breach of the contract.
type Problem struct {
	Line    int    `json:"line"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Field == "" {
		return fmt.Sprintf("line %d: %s", p.Line, p.Message)
	}
	return fmt.Sprintf("line %d: %s: %s", p.Line, p.Field, p.Message)
}

// Parse decodes data and checks the contract. It returns what it could read
// even when there are problems, so a dashboard can still show it.
func Parse(data []byte) (*PlanFact, []Problem) {
	m, b, err := frontmatter.Node(data)
	if errors.Is(err, frontmatter.ErrNone) {
		return nil, []Problem{{Line: 1, Message: "no frontmatter: the file must open with a --- block holding the contract fields"}}
	}
	if err != nil {
		return nil, []Problem{{Line: frontmatter.Line(err), Message: err.Error()}}
	}
	pf := &PlanFact{}
	var probs []Problem
	seen := map[string]*yaml.Node{}
	lines := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		seen[k.Value] = m.Content[i+1]
		lines[k.Value] = k.Line + b.StartLine - 1
	}
	end := b.BodyLine - 1 // the closing fence: where a missing key would go
	str := func(key string, required bool) string {
		n, ok := seen[key]
		if !ok {
			if required {
				probs = append(probs, Problem{Line: end, Field: key, Message: "missing"})
			}
			return ""
		}
		if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
			if n.Tag == "!!null" && !required {
				return ""
			}
			probs = append(probs, Problem{Line: lines[key], Field: key, Message: "want a single value"})
			return ""
		}
		if required && strings.TrimSpace(n.Value) == "" {
			probs = append(probs, Problem{Line: lines[key], Field: key, Message: "empty"})
		}
		return n.Value
	}
	if t := str("type", true); t != "" && t != "plan-fact" {
		probs = append(probs, Problem{Line: lines["type"], Field: "type", Message: fmt.Sprintf("is %q, want plan-fact", t)})
	}
	pf.Project = str("project", true)
	pf.Stage = str("stage", true)
	pf.PlanStatus = str("plan_status", true)
	if pf.PlanStatus != "" && !contains(PlanStatuses, pf.PlanStatus) {
		probs = append(probs, Problem{Line: lines["plan_status"], Field: "plan_status", Message: fmt.Sprintf("is %q, want one of %s", pf.PlanStatus, strings.Join(PlanStatuses, "|"))})
	}
	pf.Status = str("status", true)
	if pf.Status != "" && !contains(Statuses, pf.Status) {
		probs = append(probs, Problem{Line: lines["status"], Field: "status", Message: fmt.Sprintf("is %q, want one of %s", pf.Status, strings.Join(Statuses, "|"))})
	}
	pf.Next = str("next", pf.Status != "completed")
	pf.Summary = str("summary", true)
	pf.Updated = str("updated", true)
	if pf.Updated != "" && !isDate(pf.Updated) {
		probs = append(probs, Problem{Line: lines["updated"], Field: "updated", Message: fmt.Sprintf("is %q, want a date YYYY-MM-DD", pf.Updated)})
	}
	pf.Completed = str("completed", pf.Status == "completed")
	if pf.Completed != "" && !isDate(pf.Completed) {
		probs = append(probs, Problem{Line: lines["completed"], Field: "completed", Message: fmt.Sprintf("is %q, want a date YYYY-MM-DD", pf.Completed)})
	}
	if n, ok := seen["blockers"]; !ok {
		probs = append(probs, Problem{Line: end, Field: "blockers", Message: "missing (use [] when there are none)"})
	} else if n.Kind == yaml.SequenceNode {
		for _, item := range n.Content {
			if item.Kind != yaml.ScalarNode {
				probs = append(probs, Problem{Line: item.Line + b.StartLine - 1, Field: "blockers", Message: "each blocker must be a single line of text"})
				continue
			}
			pf.Blockers = append(pf.Blockers, item.Value)
		}
	} else if n.Tag != "!!null" {
		probs = append(probs, Problem{Line: lines["blockers"], Field: "blockers", Message: "want a list"})
	}
	sort.SliceStable(probs, func(i, j int) bool { return probs[i].Line < probs[j].Line })
	return pf, probs
}

// Set changes one contract field in data. Values arrive as text: blockers
// as a list, the rest as single values checked against the contract.
// Setting status to completed without a completed date fills it from today.
func Set(data []byte, field string, values []string, today time.Time) ([]byte, error) {
	if !contains(Fields, field) {
		return nil, fmt.Errorf("set %s: not a plan-fact field (fields: %s)", field, strings.Join(Fields, ", "))
	}
	var v any
	switch field {
	case "blockers":
		list := []string{}
		for _, s := range values {
			if s = strings.TrimSpace(s); s != "" {
				list = append(list, s)
			}
		}
		v = list
	default:
		if len(values) != 1 {
			return nil, fmt.Errorf("set %s: want exactly one value, got %d", field, len(values))
		}
		s := strings.TrimSpace(values[0])
		if strings.Contains(s, "\n") {
			return nil, fmt.Errorf("set %s: want a single line", field)
		}
		switch field {
		case "plan_status":
			if !contains(PlanStatuses, s) {
				return nil, fmt.Errorf("set plan_status: %q is not one of %s", s, strings.Join(PlanStatuses, "|"))
			}
		case "status":
			if !contains(Statuses, s) {
				return nil, fmt.Errorf("set status: %q is not one of %s", s, strings.Join(Statuses, "|"))
			}
		case "updated", "completed":
			if !isDate(s) {
				return nil, fmt.Errorf("set %s: %q is not a date YYYY-MM-DD", field, s)
			}
		case "type":
			if s != "plan-fact" {
				return nil, fmt.Errorf("set type: must stay plan-fact")
			}
		}
		v = s
	}
	val := v
	if field == "updated" || field == "completed" {
		val = dateNode(v.(string))
	}
	out, err := frontmatter.SetField(data, field, val)
	if err != nil {
		return nil, fmt.Errorf("set %s: %w", field, err)
	}
	if field != "updated" {
		if out, err = frontmatter.SetField(out, "updated", dateNode(today.Format(time.DateOnly))); err != nil {
			return nil, err
		}
	}
	if field == "status" && v == "completed" {
		if pf, _ := Parse(out); pf != nil && pf.Completed == "" {
			if out, err = frontmatter.SetField(out, "completed", dateNode(today.Format(time.DateOnly))); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// dateNode writes a date plain, as a person would (yaml would quote a
// string that looks like a date).
func dateNode(d string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: d}
}

// The values a new plan-fact page starts with, until a person or
// `memhook planfact set` replaces them (the web dashboard translates them:
// they are cerebro's words, not the person's).
const (
	TemplateStage   = "start"
	TemplateNext    = "describe the first milestone"
	TemplateSummary = "long-term memory switched on; no progress recorded yet"
)

// Template is a new, valid План-факт.md for a project.
func Template(project string, today time.Time) []byte {
	d := today.Format(time.DateOnly)
	return []byte(fmt.Sprintf(`---
type: plan-fact
project: %s
stage: %s
plan_status: on_track
status: active
next: %s
blockers: []
summary: %s
updated: %s
---

# План-факт: %s

This page's properties (its frontmatter) are read by the org rollup: keep
every field, and keep plan_status one of on_track | at_risk | blocked | done
and status one of active | paused | completed. Check with `+"`memhook planfact check`"+`.

| stage | planned start | planned end | actual start | actual end | result |
| --- | --- | --- | --- | --- | --- |
| %s | %s |  | %s |  |  |
`, yamlScalar(project), TemplateStage, TemplateNext, TemplateSummary, d, oneLine(project), TemplateStage, d, d))
}

// oneLine is s with every control character a space: a name in a heading
// stays that heading's (a folder named "x\n## Facts" opens no section).
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
}

func yamlScalar(s string) string {
	b, _ := yaml.Marshal(s)
	return strings.TrimSpace(string(b))
}

func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
