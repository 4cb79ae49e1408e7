// Package config resolves where cerebro keeps its data and the settings that
// tune it. It is the only package besides the CLI that reads the
// environment, and it reads it through the [Env] it is given.
//
// Settings come in layers, each overriding the one before: built-in
// defaults, the user file (config.toml in the user config dir, or
// $CEREBRO_CONFIG), the project file (<project>/.claude/cerebro.toml), then
// environment variables named CEREBRO_<SECTION>_<KEY>. [Load] returns the
// effective values and, for each key, the layer it came from.
//
// The project file comes with a repository, so it may only narrow what the
// user's layers allow: [Policy] says, key by key, who may set it and in
// which direction a project may move it; a refused key keeps the user's
// value and is named in [Effective.Ignored]. The user may trust a project
// by naming its root in trust_project_config.
package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Env looks up an environment variable; empty means unset.
type Env func(key string) string

// Config is every tunable setting. Keys in files are "section.key" as in the
// toml tags; the matching environment variable upper-cases the path and
// joins it with underscores (short.flush_chars → CEREBRO_SHORT_FLUSH_CHARS).
type Config struct {
	Short     Short     `toml:"short"`
	Distiller Distiller `toml:"distiller"`
	Inject    Inject    `toml:"inject"`
	Hook      Hook      `toml:"hook"`
	Long      Long      `toml:"long"`
	Search    Search    `toml:"search"`
	Embedding Embedding `toml:"embedding"`
	Rollup    Rollup    `toml:"rollup"`
	Org       Org       `toml:"org"`
	Recall    Recall    `toml:"recall"`
	Limits    Limits    `toml:"limits"`
	Evolution Evolution `toml:"evolution"`
	Night     Night     `toml:"night"`
	Serve     Serve     `toml:"serve"`
	Lessons   Lessons   `toml:"lessons"`
	// TrustProjectConfig lists project roots whose project file the user
	// trusts like their own: every key applies, not only narrowing ones.
	// Exact roots, compared after resolving links; user layers only.
	TrustProjectConfig []string `toml:"trust_project_config"`
	// ShareAcrossProjects lets searches from the desk's other projects
	// (scope projects, everything) read this project's memory. A project
	// file may switch it off, never on: a repository may keep its memory
	// to itself, not push it into other projects' answers.
	ShareAcrossProjects bool `toml:"share_across_projects"`
}

// Serve guards memhook serve.
type Serve struct {
	// AllowRemote lets --addr name an address off loopback: the pages
	// show memory, so only the user may expose them to a network.
	AllowRemote bool `toml:"allow_remote"`
}

// Lessons tunes the reminders given before a tool call (docs/lessons.md).
type Lessons struct {
	// Remind gives a lesson's reminder before a call of its form. A
	// project file may switch it on, never off: a repository must not
	// silence what the person's memory learnt.
	Remind bool `toml:"remind"`
	// Enforce lists lessons the person chose to enforce, each "deny KEY"
	// or "ask KEY" (KEY as the lessons file names it: "git push",
	// "run build.js"). The user's alone: a repository may add context,
	// never a permission decision.
	Enforce []string `toml:"enforce"`
	// RetireAfter retires a lesson whose reminder was shown this many
	// times and never heeded.
	RetireAfter int `toml:"retire_after"`
}

// Short tunes short-term (Q1) capture.
type Short struct {
	FlushChars   int  `toml:"flush_chars"`   // flush once the segment holds this many characters of dialogue
	FlushReplies int  `toml:"flush_replies"` // or this many replies, whichever comes first
	MinReplies   int  `toml:"min_replies"`   // sessions with fewer replies in total are trivial and not saved
	ScanSecrets  bool `toml:"scan_secrets"`  // redact secrets and PII from distillates before writing
}

// Distiller chooses and bounds the distiller.
type Distiller struct {
	Kind           string `toml:"kind"`            // "extractive" or "claude"
	Command        string `toml:"command"`         // the claude executable for the "claude" kind
	Model          string `toml:"model"`           // optional --model for claude -p
	TimeoutSeconds int    `toml:"timeout_seconds"` // per nested claude -p call
	DailyBudget    int    `toml:"daily_budget"`    // nested claude -p calls per day, then extractive
}

// Inject bounds what SessionStart puts into the model's context.
type Inject struct {
	MaxChars int `toml:"max_chars"`
	// Notice shows the person one line at SessionStart when memory was
	// recalled (how much, from where); it costs the model nothing.
	Notice bool `toml:"notice"`
}

// Hook bounds the hooks themselves.
type Hook struct {
	DeadlineMS int   `toml:"deadline_ms"` // hard internal deadline of one hook run
	LogMaxKB   int64 `toml:"log_max_kb"`  // the hook log is rotated past this size
}

// Long tunes project long-term (Q2) memory.
type Long struct {
	CoreMaxChars  int   `toml:"core_max_chars"`  // CORE.md hard cap, enforced by its writer
	RawLargeBytes int64 `toml:"raw_large_bytes"` // ingested files above this go to raw/_large/
	// Git says where the history of memory_long/ lives: "auto" (its own
	// repository unless the project's repository already tracks it), "own",
	// "project" (the person commits it with the project; cerebro commits
	// nothing) or "off".
	Git string `toml:"git"`
	// Remote is the git URL memory_long/ is pushed to ({project} names the
	// project's folder). Read from the user's settings only: a project
	// may not choose where its memory is sent.
	Remote string `toml:"remote"`
}

// Search tunes the memory index and ranking.
type Search struct {
	ChunkTokens      int     `toml:"chunk_tokens"`
	OverlapTokens    int     `toml:"overlap_tokens"`
	HalfLifeDays     float64 `toml:"half_life_days"` // 0 switches temporal decay off
	DateBoost        float64 `toml:"date_boost"`     // score factor for hits from the days a query names; negative: dates not read
	MMR              bool    `toml:"mmr"`
	MMRLambda        float64 `toml:"mmr_lambda"`
	VectorWeight     float64 `toml:"vector_weight"`
	TextWeight       float64 `toml:"text_weight"`
	CandidatePool    int     `toml:"candidate_pool"`
	UpdateBudgetMS   int     `toml:"update_budget_ms"` // time a search may spend catching the index up
	AutoRecall       bool    `toml:"auto_recall"`      // inject top snippets on UserPromptSubmit
	AutoRecallLimit  int     `toml:"auto_recall_limit"`
	AutoRecallScore  float64 `toml:"auto_recall_min_score"` // share of the prompt's informative words a snippet must cover
	AutoRecallBudget int     `toml:"auto_recall_budget_ms"`
	// RecencyFloor is the share of its score the oldest hit keeps: recency
	// orders hits of comparable relevance, never an exact old answer below
	// a weak new one. Negative: plain exponential decay.
	RecencyFloor float64 `toml:"recency_floor"`
	// SnippetChars caps what a result shows: a longer snippet holds more
	// context around the match and costs more of the reader's tokens.
	SnippetChars int `toml:"snippet_chars"`
	// ExtraPaths are more folders of Markdown to search, each its own
	// root, read only (relative ones from the project root; ~ is the
	// home folder). The user's alone: a project file widening what is
	// read is refused (Policy).
	ExtraPaths []string `toml:"extra_paths"`
	// Citations is auto, on or off: how results carry their
	// path#Lstart-Lend (see docs/search.md).
	Citations string `toml:"citations"`
}

// AutoRecalls reports whether auto-recall answers this prompt: it is on,
// and the prompt is neither empty nor a slash command. memhook-hot hands
// exactly these prompts to memhook.
func (s Search) AutoRecalls(prompt string) bool {
	prompt = strings.TrimSpace(prompt)
	return s.AutoRecall && prompt != "" && !strings.HasPrefix(prompt, "/")
}

// Embedding configures the optional vector provider; an empty provider
// keeps search BM25-only and offline.
type Embedding struct {
	Provider       string `toml:"provider"` // "", "ollama" or "openai"
	URL            string `toml:"url"`
	Model          string `toml:"model"`
	APIKeyEnv      string `toml:"api_key_env"` // name of the variable holding the key, never the key
	TimeoutSeconds int    `toml:"timeout_seconds"`
}

// Rollup tunes the org dashboard.
type Rollup struct {
	FreshDays     int `toml:"fresh_days"`     // memory touched within this many days is fresh
	CompletedDays int `toml:"completed_days"` // completed projects shown this long as case candidates
	GitDays       int `toml:"git_days"`       // window for commit counts with --with-git
	Hour          int `toml:"hour"`           // hour of the scheduled daily run
}

// Org tunes the org knowledge vault.
type Org struct {
	RawLargeBytes int64 `toml:"raw_large_bytes"`
	// Remote is the git URL the org vault is synced with. Read from the
	// user's settings only.
	Remote string `toml:"remote"`
}

// Recall bounds the memory black box.
type Recall struct {
	ExtremeMaxCalls int `toml:"extreme_max_calls"`
	ExtremeSeconds  int `toml:"extreme_seconds"`
	// ExtremeDailyCalls bounds the model calls of all extreme recalls in a
	// day, whoever asks (the command line or the MCP server's recall tool);
	// read from the user's settings only.
	ExtremeDailyCalls int     `toml:"extreme_daily_calls"`
	VectorMinScore    float64 `toml:"vector_min_score"` // cosine similarity a level-4 passage needs to answer
}

// Limits bounds every read of a file a repository controls (see
// internal/store/safefs): a file over its limit is refused with a logged skip,
// never read whole.
type Limits struct {
	NoteBytes           int64 `toml:"note_bytes"`            // a note, page, daily file, log.md or План-факт.md
	TranscriptLineBytes int64 `toml:"transcript_line_bytes"` // one line of a session transcript
	IngestBytes         int64 `toml:"ingest_bytes"`          // a source given to ingest or org ingest, checked before copying
}

// Evolution bounds the skills' shadow runs and decides their candidates
// (docs/skills.md).
type Evolution struct {
	ShadowShare    float64 `toml:"shadow_share"`    // share of real recalls a candidate is shadowed on; 0 = off
	DailyBudget    int     `toml:"daily_budget"`    // model calls per day for shadow runs (2 per pair)
	TimeoutSeconds int     `toml:"timeout_seconds"` // per shadow claude -p call
	MinVerdicts    int     `toml:"min_verdicts"`    // judged pairs before a candidate is promoted or removed on verdicts
	Margin         float64 `toml:"margin"`          // share of judged pairs the candidate must lead by
	PriceSlack     float64 `toml:"price_slack"`     // how much more (fraction) the candidate may cost
	MaxPairs       int     `toml:"max_pairs"`       // a trial ends after this many pairs
	TrialDays      int     `toml:"trial_days"`      // or this many days
	ProposeAfter   int     `toml:"propose_after"`   // bad verdicts or misses among a skill's last 10 runs that make a proposal
}

// Night tunes the night pass over project long-term memory (memhook
// night). Its budget is read from the user's settings only, and a project
// file may only lower it (see Policy).
type Night struct {
	Model            string `toml:"model"`              // "" (deterministic steps only) or "claude"
	Command          string `toml:"command"`            // the claude executable
	ClaudeModel      string `toml:"claude_model"`       // optional --model for claude -p
	MaxCalls         int    `toml:"max_calls"`          // model calls a night, across projects
	MaxTokens        int    `toml:"max_tokens"`         // estimated input tokens a night, across projects
	TimeoutSeconds   int    `toml:"timeout_seconds"`    // per call
	CompileAfterDays int    `toml:"compile_after_days"` // closed days older than this are ready to compile
	MaxDayChars      int    `toml:"max_day_chars"`      // a longer day goes to the model in parts
	Core             string `toml:"core"`               // CORE.md lines from the person's replies: "propose", "apply" or "off"
	Time             string `toml:"time"`               // HH:MM, local: when the daily entry runs the night, then maintenance
}

// Default returns the built-in settings.
func Default() Config {
	return Config{
		Short:     Short{FlushChars: 12000, FlushReplies: 20, MinReplies: 4, ScanSecrets: true},
		Distiller: Distiller{Kind: "extractive", Command: "claude", TimeoutSeconds: 120, DailyBudget: 20},
		Inject:    Inject{MaxChars: 9000, Notice: true},
		Hook:      Hook{DeadlineMS: 4000, LogMaxKB: 1024},
		Long:      Long{CoreMaxChars: 2000, RawLargeBytes: 1 << 20, Git: "auto"},
		Search: Search{
			ChunkTokens: 400, OverlapTokens: 80, HalfLifeDays: 30, DateBoost: 2,
			MMR: false, MMRLambda: 0.7, VectorWeight: 0.7, TextWeight: 0.3, CandidatePool: 50,
			UpdateBudgetMS: 800, AutoRecallLimit: 3, AutoRecallScore: 0.5, AutoRecallBudget: 150,
			RecencyFloor: 0.9, SnippetChars: 1200, Citations: "auto",
		},
		Embedding: Embedding{TimeoutSeconds: 10},
		Rollup:    Rollup{FreshDays: 14, CompletedDays: 7, GitDays: 14, Hour: 7},
		Org:       Org{RawLargeBytes: 1 << 20},
		Recall:    Recall{ExtremeMaxCalls: 3, ExtremeSeconds: 180, ExtremeDailyCalls: 30, VectorMinScore: 0.5},
		Limits:    Limits{NoteBytes: 8 << 20, TranscriptLineBytes: 16 << 20, IngestBytes: 64 << 20},
		Evolution: Evolution{DailyBudget: 20, TimeoutSeconds: 120, MinVerdicts: 5, Margin: 0.2, PriceSlack: 0.25,
			MaxPairs: 30, TrialDays: 30, ProposeAfter: 3},
		Night: Night{Command: "claude", MaxCalls: 40, MaxTokens: 300000, TimeoutSeconds: 180,
			CompileAfterDays: 7, MaxDayChars: 60000, Core: "propose", Time: "04:00"},
		Lessons:             Lessons{Remind: true, RetireAfter: 3},
		ShareAcrossProjects: true,
	}
}

// Source layers, as reported by [Effective.Source].
const (
	SourceDefault = "default"
	SourceUser    = "user file"
	SourceProject = "project file"
	SourceEnv     = "environment"
)

// Effective is the loaded configuration with the provenance of each key.
type Effective struct {
	Config
	UserFile    string            // path of the user file, whether or not it exists
	ProjectFile string            // path of the project file, or "" outside a project
	sources     map[string]string // key -> layer, and the file or variable
	Warnings    []string          // unreadable files, bad values, unknown keys: never fatal
	// Broken lists the warnings about whole files that could not be read
	// or parsed (also in Warnings): doctor reports them as broken.
	Broken []string
	// Ignored names every project key the trust policy refused
	// ("ignored: project config may not set distiller.command (…)"); the
	// user's value applies instead.
	Ignored []string
	// Trusted says the user's trust_project_config names this project:
	// its file applied like the user's.
	Trusted bool
}

// Source says where key ("short.flush_chars") got its value.
func (e *Effective) Source(key string) string {
	if s, ok := e.sources[key]; ok {
		return s
	}
	return SourceDefault
}

// Setting is one effective key, for display.
type Setting struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// Settings lists every key with its value and source, sorted by key.
func (e *Effective) Settings() []Setting {
	var out []Setting
	walk(reflect.ValueOf(&e.Config).Elem(), func(key string, v reflect.Value) {
		out = append(out, Setting{Key: key, Value: fmt.Sprint(v.Interface()), Source: e.Source(key)})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
