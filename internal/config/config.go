// Package config resolves where cerebro keeps its data and the settings that
// tune it. It is the only package besides the CLI that reads the
// environment, and it reads it through the [Env] it is given.
//
// Settings come in layers, each overriding the one before: built-in
// defaults, the user file (config.toml in the user config dir, or
// $CEREBRO_CONFIG), the project file (<project>/.claude/cerebro.toml), then
// environment variables named CEREBRO_<SECTION>_<KEY>. [Load] returns the
// effective values and, for each key, the layer it came from.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
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
	Night     Night     `toml:"night"`
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
}

// Recall bounds the memory black box.
type Recall struct {
	ExtremeMaxCalls int     `toml:"extreme_max_calls"`
	ExtremeSeconds  int     `toml:"extreme_seconds"`
	VectorMinScore  float64 `toml:"vector_min_score"` // cosine similarity a level-4 passage needs to answer
}

// Night tunes the night pass over project long-term memory (memhook
// night). Its budget is read from the user's settings only: a project file
// cannot raise what a night may spend.
type Night struct {
	Model            string `toml:"model"`              // "" (deterministic steps only) or "claude"
	Command          string `toml:"command"`            // the claude executable
	ClaudeModel      string `toml:"claude_model"`       // optional --model for claude -p
	MaxCalls         int    `toml:"max_calls"`          // model calls a night, across projects
	MaxTokens        int    `toml:"max_tokens"`         // estimated input tokens a night, across projects
	TimeoutSeconds   int    `toml:"timeout_seconds"`    // per call
	CompileAfterDays int    `toml:"compile_after_days"` // closed days older than this are ready to compile
	MaxDayChars      int    `toml:"max_day_chars"`      // a longer day goes to the model in parts
}

// Default returns the built-in settings.
func Default() Config {
	return Config{
		Short:     Short{FlushChars: 12000, FlushReplies: 20, MinReplies: 4},
		Distiller: Distiller{Kind: "extractive", Command: "claude", TimeoutSeconds: 120, DailyBudget: 20},
		Inject:    Inject{MaxChars: 9000},
		Hook:      Hook{DeadlineMS: 4000, LogMaxKB: 1024},
		Long:      Long{CoreMaxChars: 2000, RawLargeBytes: 1 << 20, Git: "auto"},
		Search: Search{
			ChunkTokens: 400, OverlapTokens: 80, HalfLifeDays: 30, DateBoost: 2,
			MMR: true, MMRLambda: 0.7, VectorWeight: 0.7, TextWeight: 0.3, CandidatePool: 50,
			UpdateBudgetMS: 2000, AutoRecallLimit: 3, AutoRecallScore: 0.5, AutoRecallBudget: 150,
		},
		Embedding: Embedding{TimeoutSeconds: 10},
		Rollup:    Rollup{FreshDays: 14, CompletedDays: 7, GitDays: 14, Hour: 7},
		Org:       Org{RawLargeBytes: 1 << 20},
		Recall:    Recall{ExtremeMaxCalls: 3, ExtremeSeconds: 180, VectorMinScore: 0.5},
		Night: Night{Command: "claude", MaxCalls: 40, MaxTokens: 300000, TimeoutSeconds: 180,
			CompileAfterDays: 7, MaxDayChars: 60000},
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
	Warnings    []string          // unknown keys and the like, never fatal
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
	walk(reflect.ValueOf(&e.Config).Elem(), "", func(key string, v reflect.Value) {
		out = append(out, Setting{Key: key, Value: fmt.Sprint(v.Interface()), Source: e.Source(key)})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// UserFile is where the user's settings live.
func UserFile(env Env) string {
	if p := env("CEREBRO_CONFIG"); p != "" {
		return p
	}
	return filepath.Join(userConfigDir(env), "cerebro", "config.toml")
}

// ProjectFile is where a project's settings live.
func ProjectFile(projectRoot string) string {
	return filepath.Join(projectRoot, ".claude", "cerebro.toml")
}

// Load builds the effective configuration for a project (projectRoot may be
// empty). A missing file is not an error; a file that does not parse is,
// and names the file.
func Load(env Env, projectRoot string) (*Effective, error) {
	e := &Effective{Config: Default(), sources: map[string]string{}, UserFile: UserFile(env)}
	if err := e.mergeFile(e.UserFile, SourceUser); err != nil {
		return nil, err
	}
	if projectRoot != "" {
		e.ProjectFile = ProjectFile(projectRoot)
		if err := e.mergeFile(e.ProjectFile, SourceProject); err != nil {
			return nil, err
		}
	}
	if err := e.mergeEnv(env); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *Effective) mergeFile(path, layer string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read config %s: %w", path, err)
	}
	md, err := toml.Decode(string(data), &e.Config)
	if err != nil {
		return fmt.Errorf("parse config %s: %w", path, err)
	}
	for _, k := range md.Keys() {
		if len(k) == 2 {
			e.sources[k.String()] = layer + " " + path
		}
	}
	for _, k := range md.Undecoded() {
		if md.Type(k...) == "Hash" {
			continue // its keys are reported one by one
		}
		e.Warnings = append(e.Warnings, fmt.Sprintf("%s: unknown key %q ignored", path, k.String()))
	}
	return nil
}

func (e *Effective) mergeEnv(env Env) error {
	var firstErr error
	walk(reflect.ValueOf(&e.Config).Elem(), "", func(key string, v reflect.Value) {
		name := EnvName(key)
		raw := env(name)
		if raw == "" {
			return
		}
		if err := setScalar(v, raw); err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("read %s: %w", name, err)
			}
			return
		}
		e.sources[key] = SourceEnv + " " + name
	})
	return firstErr
}

// EnvName is the variable that overrides key.
func EnvName(key string) string {
	return "CEREBRO_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

func walk(v reflect.Value, prefix string, fn func(key string, v reflect.Value)) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("toml"), ",")[0]
		if tag == "" || tag == "-" {
			continue
		}
		key := tag
		if prefix != "" {
			key = prefix + "." + tag
		}
		f := v.Field(i)
		if f.Kind() == reflect.Struct {
			walk(f, key, fn)
			continue
		}
		fn(key, f)
	}
}

func setScalar(v reflect.Value, raw string) error {
	switch v.Kind() {
	case reflect.String:
		v.SetString(raw)
	case reflect.Bool:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", raw)
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return fmt.Errorf("want a whole number, got %q", raw)
		}
		v.SetInt(n)
	case reflect.Float64:
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return fmt.Errorf("want a number, got %q", raw)
		}
		v.SetFloat(f)
	default:
		return fmt.Errorf("unsupported kind %s", v.Kind())
	}
	return nil
}
