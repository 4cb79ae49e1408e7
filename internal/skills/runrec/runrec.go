// Package runrec keeps the facts of every memory cycle: a run record per
// recall, remember, relearn, skill-driven turn and shadow run, the verdicts
// given from outside, and the decisions evolution took. Facts, never the
// model's impression of its own work.
//
// Writers only append one JSON line to a journal (no fsync, no lock: one
// write per line), so a record costs a hook or a verb microseconds:
//
//	j := runrec.Journal{Dir: dir}
//	id := runrec.NewID(now)
//	err := j.Append(runrec.Run{ID: id, Time: now, Kind: runrec.KindRecall, ...})
//	err = j.Verdict(runrec.Verdict{Run: id, Verdict: runrec.Good, Source: "person"})
//
// Readers open the [Store], a SQLite cache (through internal/store/sqlitedb) that
// replays the journal's unseen tail and answers queries; it can be deleted
// at any time and is rebuilt from the journal.
//
// A skill-driven turn is open while its marker exists ([WriteTurnMarker],
// [ReadTurnMarker]); each tool of the turn is added by name, a Bash call
// running memhook by its verb ([BashTool]).
package runrec

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
)

// Kinds of run.
const (
	KindRecall   = "recall"
	KindRemember = "remember"
	KindRelearn  = "relearn"
	KindTurn     = "turn"   // a turn driven by a skill, seen by the hooks
	KindShadow   = "shadow" // one arm of a shadow pair, run in the background
)

// Arms of a shadow pair.
const (
	ArmActive    = "active"
	ArmCandidate = "candidate"
)

// Verdicts.
const (
	Good = "good"
	Bad  = "bad"
)

// Skill is a skill a run used, at the version it had then.
type Skill struct {
	Name string `json:"name"`
	// Version is the git object id of the skill file's content: it names
	// one version exactly, uncommitted or not, without walking history on
	// the hot path (`git log --find-object=VERSION` names the commit).
	Version   string `json:"version,omitempty"`
	Candidate string `json:"candidate,omitempty"` // the candidate id, for a shadow arm
}

// Run is the record of one run.
type Run struct {
	ID         string    `json:"id"`
	Time       time.Time `json:"time"`
	Kind       string    `json:"kind"`
	Session    string    `json:"session,omitempty"`
	Request    string    `json:"request,omitempty"`
	Depth      int       `json:"depth,omitempty"` // the level reached (1 tables … 5 research)
	ModelCalls int       `json:"model_calls"`
	Tokens     int       `json:"tokens,omitempty"` // when the model reported them
	Seconds    float64   `json:"seconds"`
	AnswerKind string    `json:"answer_kind,omitempty"`
	Skills     []Skill   `json:"skills,omitempty"`
	Tools      []string  `json:"tools,omitempty"`
	// Parent is the run a shadow arm shadows, or the shadow arm inside
	// which a nested run happened.
	Parent string `json:"parent,omitempty"`
	Pair   string `json:"pair,omitempty"` // a shadow pair's id
	Arm    string `json:"arm,omitempty"`  // a shadow arm: active or candidate
	// Answer is a shadow arm's answer: recorded for the judge, never
	// returned to whoever made the real request.
	Answer string `json:"answer,omitempty"`
	Error  string `json:"error,omitempty"`
	Open   bool   `json:"open,omitempty"` // a turn whose end was not seen yet

	// Filled by the store.
	Verdict     string `json:"verdict,omitempty"`
	VerdictNote string `json:"verdict_note,omitempty"`
}

// Unfinished reports whether the run has no verdict yet: it counts as
// neither success nor failure.
func (r Run) Unfinished() bool { return r.Verdict == "" }

// Miss reports whether the run climbed to the top of the ladder and still
// found nothing.
func (r Run) Miss() bool { return r.Depth >= 5 && r.AnswerKind == "none" }

// Verdict is a judgement from outside on one run.
type Verdict struct {
	Run     string    `json:"run"`
	Time    time.Time `json:"time"`
	Verdict string    `json:"verdict"`
	Note    string    `json:"note,omitempty"`
	Source  string    `json:"source"` // person, caller, judge
}

// Decision is what evolution did with one candidate, and why.
type Decision struct {
	Time      time.Time      `json:"time"`
	Skill     string         `json:"skill"`
	Candidate string         `json:"candidate"`
	Action    string         `json:"action"` // promote, remove
	Why       string         `json:"why"`
	Figures   map[string]any `json:"figures,omitempty"`
	Commit    string         `json:"commit,omitempty"`
}

// event is one journal line.
type event struct {
	T        string    `json:"t"` // run, verdict, tool, end, slot, decision
	Run      *Run      `json:"run,omitempty"`
	Verdict  *Verdict  `json:"verdict,omitempty"`
	Decision *Decision `json:"decision,omitempty"`
	ID       string    `json:"id,omitempty"` // tool, end: the run; slot: the pair
	Tool     string    `json:"tool,omitempty"`
	Seconds  float64   `json:"seconds,omitempty"`
	Calls    int       `json:"calls,omitempty"` // slot: model calls reserved
	Time     time.Time `json:"time,omitzero"`
}

// Journal is the append-only record file of one project.
type Journal struct {
	Dir string // <state>/runs/<project id>
}

// Path is the journal file.
func (j Journal) Path() string { return filepath.Join(j.Dir, "runs.jsonl") }

func (j Journal) append(e event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("record run: %w", err)
	}
	return atomicfile.AppendUnsynced(j.Path(), append(b, '\n'), 0o600)
}

// MaxRequest bounds the request text a record keeps.
const MaxRequest = 2000

// MaxAnswer bounds a shadow arm's recorded answer.
const MaxAnswer = 16000

// Append records a run.
func (j Journal) Append(r Run) error {
	if r.ID == "" || r.Kind == "" {
		return errors.New("record run: id and kind are required")
	}
	r.Request = clip(r.Request, MaxRequest)
	r.Answer = clip(r.Answer, MaxAnswer)
	r.Verdict, r.VerdictNote = "", ""
	return j.append(event{T: "run", Run: &r})
}

// Tool adds a tool to an open run (a skill-driven turn).
func (j Journal) Tool(id, tool string, now time.Time) error {
	return j.append(event{T: "tool", ID: id, Tool: tool, Time: now})
}

// End closes an open run with its wall time.
func (j Journal) End(id string, seconds float64, now time.Time) error {
	return j.append(event{T: "end", ID: id, Seconds: seconds, Time: now})
}

// ParseVerdict checks a verdict word.
func ParseVerdict(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case Good:
		return Good, nil
	case Bad:
		return Bad, nil
	}
	return "", fmt.Errorf("verdict %q: want good or bad", s)
}

// Verdict records a verdict; the newest verdict on a run wins.
func (j Journal) Verdict(v Verdict) error {
	w, err := ParseVerdict(v.Verdict)
	if err != nil {
		return err
	}
	v.Verdict = w
	return j.append(event{T: "verdict", Verdict: &v})
}

// Decide records an evolution decision.
func (j Journal) Decide(d Decision) error {
	return j.append(event{T: "decision", Decision: &d})
}

// NewID is a run id: sortable by time, unique across processes.
func NewID(now time.Time) string {
	var b [4]byte
	rand.Read(b[:])
	return "r" + now.UTC().Format("060102150405") + hex.EncodeToString(b[:])
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
