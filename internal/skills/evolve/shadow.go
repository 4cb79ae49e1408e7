package evolve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
)

// ParentEnv carries a shadow arm's run id into its claude -p, so the recall
// runs the arm makes are recorded as its children (their depth is the arm's
// depth).
const ParentEnv = "CEREBRO_RUN_PARENT"

// CallsPerPair is what one shadow pair spends of the daily budget: both arms
// run the same way, so both cost a model call.
const CallsPerPair = 2

// Sampled decides, from the run id alone, whether a request falls in the
// declared share: the same run always gets the same answer, and over many
// runs the fraction sampled is the share.
func Sampled(runID string, share float64) bool {
	if share <= 0 {
		return false
	}
	if share >= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(runID))
	return float64(h.Sum64()%1_000_000)/1_000_000 < share
}

// ErrOverBudget means the day's shadow calls are spent.
var ErrOverBudget = errors.New("the daily budget of shadow model calls is spent")

// Shadow runs a candidate against the active version on one real request.
type Shadow struct {
	Runner  claude.Runner // Env must already be the child's environment
	Journal runrec.Journal
	Calls   claude.Budget // the day's model calls of shadow runs (evolution.daily_budget)
	Memhook string        // the memhook executable the arms may call for recall
	Vars    map[string]string
	Now     func() time.Time
}

// Pair is what a shadow run produced.
type Pair struct {
	ID        string `json:"pair"`
	Active    string `json:"active_run"`
	Candidate string `json:"candidate_run"`
}

// Run reserves the pair's calls, then runs both arms — the active text and
// the candidate text — on the parent's request, one after the other in a
// random order, and records each as a shadow run. Neither answer goes
// anywhere but the records.
func (s Shadow) Run(ctx context.Context, parent runrec.Run, ref skill.Ref, c Candidate) (Pair, error) {
	now := s.Now()
	p := Pair{ID: "p" + runrec.NewID(now)[1:]}
	ok, err := s.Calls.TakeN(now, CallsPerPair)
	if err != nil {
		return p, fmt.Errorf("shadow of run %s: %w", parent.ID, err)
	}
	if !ok {
		used, _ := s.Calls.Used(now)
		return p, fmt.Errorf("shadow of run %s: %w (%d of %d)", parent.ID, ErrOverBudget, used, s.Calls.Limit)
	}
	active, err := ReadSkill(ref.File)
	if err != nil {
		return p, fmt.Errorf("shadow: read active %s: %w", ref.Name, err)
	}
	cand, err := ReadSkill(c.File)
	if err != nil {
		return p, fmt.Errorf("shadow: read candidate %s: %w", c.ID, err)
	}
	arms := []struct {
		arm  string
		text []byte
		sk   runrec.Skill
		id   *string
	}{
		{runrec.ArmActive, active, runrec.Skill{Name: ref.Name, Version: Version(active)}, &p.Active},
		{runrec.ArmCandidate, cand, runrec.Skill{Name: ref.Name, Version: Version(cand), Candidate: c.ID}, &p.Candidate},
	}
	if rand.IntN(2) == 1 {
		arms[0], arms[1] = arms[1], arms[0]
	}
	var firstErr error
	for _, a := range arms {
		id := runrec.NewID(s.Now())
		*a.id = id
		r := s.Runner
		r.Env = append(append([]string(nil), r.Env...), ParentEnv+"="+id)
		// The JSON result (the later --output-format wins) carries the
		// tokens the model spent; text output would not.
		tools, allowed := s.tools()
		res, err := r.Run(ctx, claude.Call{Prompt: s.prompt(a.text, parent.Request), AllowedTools: allowed, Args: []string{"--output-format", "json", "--tools", tools}})
		answer, tokens := parseResult(res.Output)
		rec := runrec.Run{
			ID: id, Time: s.Now(), Kind: runrec.KindShadow, Request: parent.Request, Session: parent.Session,
			ModelCalls: 1, Tokens: tokens, Seconds: res.Seconds, Skills: []runrec.Skill{a.sk}, Parent: parent.ID,
			Pair: p.ID, Arm: a.arm, Answer: answer, AnswerKind: answerKind(answer, err),
		}
		if err != nil {
			rec.Error = err.Error()
			if firstErr == nil {
				firstErr = err
			}
		}
		if werr := s.Journal.Append(rec); werr != nil && firstErr == nil {
			firstErr = werr
		}
	}
	return p, firstErr
}

// parseResult reads claude -p's JSON result: the answer and the tokens
// it reports (input, cache and output). Anything else is taken as the
// plain answer, with no tokens known.
func parseResult(out string) (string, int) {
	var v struct {
		Type   string `json:"type"`
		Result string `json:"result"`
		Usage  struct {
			Input       int `json:"input_tokens"`
			CacheCreate int `json:"cache_creation_input_tokens"`
			CacheRead   int `json:"cache_read_input_tokens"`
			Output      int `json:"output_tokens"`
		} `json:"usage"`
	}
	t := strings.TrimSpace(out)
	if json.Unmarshal([]byte(t), &v) != nil || v.Type != "result" {
		return t, 0
	}
	u := v.Usage
	return strings.TrimSpace(v.Result), u.Input + u.CacheCreate + u.CacheRead + u.Output
}

// NoAnswer is what an arm replies when it found nothing.
const NoAnswer = "NONE"

func answerKind(out string, err error) string {
	t := strings.TrimSpace(out)
	switch {
	case err != nil:
		return "error"
	case t == "" || t == NoAnswer:
		return "none"
	}
	return "answer"
}

// tools is the arm's tool set (--tools) and what it may run without
// asking (--allowedTools). Claude Code lets a headless call use its
// read-only tools (Read, Grep, Glob) unasked, so leaving them out of
// --allowedTools does not keep them out: --tools does. They would read the
// repository as they find it (a link out of it, a .env) past the safe file
// layer and the secret guard; an arm reads memory only through memhook's
// recall, which passes both, and never writes to it.
func (s Shadow) tools() (tools, allowed string) {
	if s.Memhook == "" {
		return "", ""
	}
	return "Bash", `Bash("` + s.Memhook + `" recall:*),Bash(` + s.Memhook + ` recall:*)`
}

// prompt puts the skill's text where Claude Code would put a loaded skill,
// with the plugin's variables substituted as Claude Code does.
func (s Shadow) prompt(text []byte, request string) string {
	body := string(text)
	for k, v := range s.Vars {
		body = strings.ReplaceAll(body, "${"+k+"}", v)
	}
	var b strings.Builder
	b.WriteString("You answer one request from a person, using the project's memory as the skill below tells you.\n")
	if s.Memhook != "" {
		b.WriteString("memhook is `\"" + s.Memhook + "\"`; you may only run its recall.\n")
	}
	b.WriteString("Answer in at most 5 sentences. If memory holds no answer, reply exactly " + NoAnswer + ".\n\n<skill>\n")
	b.WriteString(body)
	b.WriteString("\n</skill>\n\nRequest: ")
	b.WriteString(request)
	b.WriteString("\n")
	return b.String()
}
