package config

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// Who may set a key, and how far a project file may move it. The user's
// layers (the user file and the environment) set every key; a project file
// is part of a repository, which a stranger may have written, so it may
// only narrow what the user's layers allow (decision D6 in docs/design.md).
type Who int

const (
	// AnyLayer: a tuning a repository may choose freely (thresholds,
	// ranking); the worst it can do is save less or rank differently.
	AnyLayer Who = iota
	// NarrowDown: a project may lower the value, never raise it (limits,
	// budgets, timeouts, what a hook may spend).
	NarrowDown
	// NarrowUp: a project may raise the value, never lower it (a
	// threshold that guards a decision: lower would weaken the guard).
	NarrowUp
	// NarrowOn: a guard a project may switch on, never off.
	NarrowOn
	// NarrowOff: a feature a project may switch off, never on.
	NarrowOff
	// NarrowTo: a choice a project may set only to one of Rule.To (the
	// choices that spend nothing and send nothing).
	NarrowTo
	// UserOnly: a program to run, an address or credential to send data
	// with, a model to spend on, a network exposure: never from a project.
	UserOnly
)

// Rule is one row of the policy: who may set the key and, for a refusal,
// what it would have done (named in the "ignored" message).
type Rule struct {
	Who  Who
	To   []string // NarrowTo: the values a project may choose
	What string   // what the key is, for the message: "a program to run"
}

// Policy classifies every key. A key added to Config without a row here
// fails TestEveryKeyHasAPolicy; at run time an unclassified key is
// treated as UserOnly.
var Policy = map[string]Rule{
	"trust_project_config":  {Who: UserOnly, What: "which projects are trusted"},
	"share_across_projects": {Who: NarrowOff, What: "this project's memory in other projects' searches"},

	"short.flush_chars":   {Who: AnyLayer},
	"short.flush_replies": {Who: AnyLayer},
	"short.min_replies":   {Who: AnyLayer},
	"short.scan_secrets":  {Who: NarrowOn, What: "the secret guard"},

	"distiller.kind":            {Who: NarrowTo, To: []string{"extractive"}, What: "a model distiller that spends"},
	"distiller.command":         {Who: UserOnly, What: "a program to run"},
	"distiller.model":           {Who: UserOnly, What: "a model to spend on"},
	"distiller.timeout_seconds": {Who: NarrowDown, What: "a timeout"},
	"distiller.daily_budget":    {Who: NarrowDown, What: "a budget"},

	"inject.max_chars": {Who: NarrowDown, What: "what every session's context carries"},
	// The person's line of what was recalled: a repository may not hide it.
	"inject.notice": {Who: NarrowOn, What: "the line that shows the person what was recalled"},

	"hook.deadline_ms": {Who: NarrowDown, What: "how long a hook may block"},
	"hook.log_max_kb":  {Who: NarrowDown, What: "a limit"},

	"long.core_max_chars":  {Who: AnyLayer},
	"long.raw_large_bytes": {Who: AnyLayer},
	"long.git":             {Who: AnyLayer},
	"long.remote":          {Who: UserOnly, What: "an address memory is pushed to"},

	"search.chunk_tokens": {Who: AnyLayer},
	"search.citations":    {Who: AnyLayer},
	// More folders to read widen what a search reads and hands to the
	// model: a repository's file could name one inside itself that is a
	// link to the person's home.
	"search.extra_paths":           {Who: UserOnly, What: "folders to read besides memory"},
	"search.overlap_tokens":        {Who: AnyLayer},
	"search.half_life_days":        {Who: AnyLayer},
	"search.date_boost":            {Who: AnyLayer},
	"search.mmr":                   {Who: AnyLayer},
	"search.mmr_lambda":            {Who: AnyLayer},
	"search.vector_weight":         {Who: AnyLayer},
	"search.text_weight":           {Who: AnyLayer},
	"search.candidate_pool":        {Who: AnyLayer},
	"search.update_budget_ms":      {Who: NarrowDown, What: "a time budget"},
	"search.auto_recall":           {Who: NarrowOff, What: "memory put into every prompt"},
	"search.auto_recall_limit":     {Who: NarrowDown, What: "a limit"},
	"search.auto_recall_min_score": {Who: NarrowUp, What: "a guard"},
	"search.auto_recall_budget_ms": {Who: NarrowDown, What: "a time budget"},
	"search.recency_floor":         {Who: AnyLayer},
	"search.snippet_chars":         {Who: AnyLayer},

	"embedding.provider":        {Who: NarrowTo, To: []string{""}, What: "an embedding provider that receives memory text"},
	"embedding.url":             {Who: UserOnly, What: "an address memory text is sent to"},
	"embedding.model":           {Who: UserOnly, What: "a model to spend on"},
	"embedding.api_key_env":     {Who: UserOnly, What: "a credential"},
	"embedding.timeout_seconds": {Who: NarrowDown, What: "a timeout"},

	"rollup.fresh_days":     {Who: AnyLayer},
	"rollup.completed_days": {Who: AnyLayer},
	"rollup.git_days":       {Who: AnyLayer},
	"rollup.hour":           {Who: AnyLayer},

	"org.raw_large_bytes": {Who: AnyLayer},
	"org.remote":          {Who: UserOnly, What: "an address the org vault is pushed to"},

	"recall.extreme_max_calls":   {Who: NarrowDown, What: "a budget of model calls"},
	"recall.extreme_seconds":     {Who: NarrowDown, What: "a time budget"},
	"recall.extreme_daily_calls": {Who: NarrowDown, What: "a daily budget of model calls"},
	"recall.vector_min_score":    {Who: NarrowUp, What: "a guard"},

	"limits.note_bytes":            {Who: NarrowDown, What: "a limit"},
	"limits.transcript_line_bytes": {Who: NarrowDown, What: "a limit"},
	"limits.ingest_bytes":          {Who: NarrowDown, What: "a limit"},

	"evolution.shadow_share":    {Who: NarrowDown, What: "a share of recalls that spend model calls"},
	"evolution.daily_budget":    {Who: NarrowDown, What: "a budget"},
	"evolution.timeout_seconds": {Who: NarrowDown, What: "a timeout"},
	"evolution.min_verdicts":    {Who: NarrowUp, What: "a guard on promotion"},
	"evolution.margin":          {Who: NarrowUp, What: "a guard on promotion"},
	"evolution.price_slack":     {Who: NarrowDown, What: "a guard on cost"},
	"evolution.max_pairs":       {Who: NarrowDown, What: "a budget"},
	"evolution.trial_days":      {Who: AnyLayer},
	"evolution.propose_after":   {Who: AnyLayer},

	"night.model":              {Who: NarrowTo, To: []string{""}, What: "a model the night spends on"},
	"night.command":            {Who: UserOnly, What: "a program to run"},
	"night.claude_model":       {Who: UserOnly, What: "a model to spend on"},
	"night.max_calls":          {Who: NarrowDown, What: "a budget"},
	"night.max_tokens":         {Who: NarrowDown, What: "a budget"},
	"night.timeout_seconds":    {Who: NarrowDown, What: "a timeout"},
	"night.compile_after_days": {Who: AnyLayer},
	"night.max_day_chars":      {Who: AnyLayer},
	"lessons.remind":           {Who: NarrowOn, What: "the reminders of what memory learnt"},
	"lessons.enforce":          {Who: UserOnly, What: "a permission decision on a tool call"},
	"lessons.retire_after":     {Who: AnyLayer},

	"night.core": {Who: NarrowTo, To: []string{"propose", "off"}, What: "CORE.md edits applied without the person's review"},
	"night.time": {Who: AnyLayer},

	"serve.allow_remote": {Who: UserOnly, What: "a network exposure"},
}

// rule is key's row; an unclassified key is the user's alone.
func rule(key string) Rule {
	if r, ok := Policy[key]; ok {
		return r
	}
	return Rule{Who: UserOnly, What: "an unclassified key"}
}

// narrowRefusal says why a project value may not replace the user's one,
// or "" when it may.
func narrowRefusal(key string, user, project reflect.Value) string {
	r := rule(key)
	switch r.Who {
	case AnyLayer:
		return ""
	case UserOnly:
		return fmt.Sprintf("project config may not set %s (%s)", key, r.What)
	case NarrowOn:
		if project.Bool() || !user.Bool() {
			return ""
		}
		return fmt.Sprintf("project config may not switch %s off (%s)", key, r.What)
	case NarrowOff:
		if !project.Bool() || user.Bool() {
			return ""
		}
		return fmt.Sprintf("project config may not switch %s on (%s)", key, r.What)
	case NarrowTo:
		if project.String() == user.String() || slices.Contains(r.To, project.String()) {
			return ""
		}
		return fmt.Sprintf("project config may not set %s = %q (%s; it may set %s)", key, project.String(), r.What, quoteAll(r.To))
	case NarrowDown, NarrowUp:
		u, p := number(user), number(project)
		if r.Who == NarrowDown && p <= u || r.Who == NarrowUp && p >= u {
			return ""
		}
		verb := "raise"
		if r.Who == NarrowUp {
			verb = "lower"
		}
		return fmt.Sprintf("project config may not %s %s from %v to %v (%s)", verb, key, user.Interface(), project.Interface(), r.What)
	}
	return fmt.Sprintf("project config may not set %s", key)
}

func number(v reflect.Value) float64 {
	switch v.Kind() {
	case reflect.Int, reflect.Int64:
		return float64(v.Int())
	case reflect.Float64:
		return v.Float()
	}
	return 0
}

func quoteAll(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, " or ")
}

// narrow puts back the user's value of every key the project layer moved
// further than its rule allows, recording each as ignored. user is the
// configuration before the project layer was applied.
func (e *Effective) narrow(user *Config, userSources map[string]string) {
	walkPair(reflect.ValueOf(user).Elem(), reflect.ValueOf(&e.Config).Elem(), func(key string, before, v reflect.Value) {
		if !strings.HasPrefix(e.sources[key], SourceProject) {
			return
		}
		why := narrowRefusal(key, before, v)
		if why == "" {
			return
		}
		e.ignore("ignored: %s", why)
		v.Set(before)
		if s, ok := userSources[key]; ok {
			e.sources[key] = s
		} else {
			delete(e.sources, key)
		}
	})
}

// ignore records a refused project key once.
func (e *Effective) ignore(format string, args ...any) {
	w := fmt.Sprintf(format, args...)
	if !slices.Contains(e.Ignored, w) {
		e.Ignored = append(e.Ignored, w)
	}
}

// trustedRoot reports whether the user named projectRoot in
// trust_project_config: exact roots, compared after resolving links, so a
// link planted elsewhere cannot borrow a trusted root's standing.
func trustedRoot(trusted []string, projectRoot string) bool {
	if len(trusted) == 0 || projectRoot == "" {
		return false
	}
	root, err := filepath.EvalSymlinks(projectRoot)
	if err != nil {
		return false
	}
	for _, t := range trusted {
		if !filepath.IsAbs(t) {
			continue
		}
		if r, err := filepath.EvalSymlinks(t); err == nil && r == root {
			return true
		}
	}
	return false
}
