package config

import (
	"fmt"
	"reflect"
	"strings"
)

// bound is the allowed range of a numeric key.
type bound struct{ min, max float64 }

// bounds lists every numeric key's allowed range. A value outside it is
// warned about, naming the range, and the key falls back to its default:
// a negative flush threshold or a deadline of a year must not reach the
// hooks.
var bounds = map[string]bound{
	"short.flush_chars":            {200, 1_000_000},
	"short.flush_replies":          {1, 10_000},
	"short.min_replies":            {0, 1_000},
	"distiller.timeout_seconds":    {1, 3_600},
	"distiller.daily_budget":       {0, 10_000},
	"inject.max_chars":             {0, 200_000},
	"hook.deadline_ms":             {100, 60_000},
	"hook.log_max_kb":              {16, 1 << 20},
	"long.core_max_chars":          {100, 100_000},
	"long.raw_large_bytes":         {0, 1 << 40},
	"search.chunk_tokens":          {20, 10_000},
	"search.overlap_tokens":        {0, 5_000},
	"search.half_life_days":        {0, 36_500},
	"search.date_boost":            {-100, 100},
	"search.mmr_lambda":            {0, 1},
	"search.vector_weight":         {0, 1},
	"search.text_weight":           {0, 1},
	"search.candidate_pool":        {1, 10_000},
	"search.update_budget_ms":      {0, 600_000},
	"search.auto_recall_limit":     {0, 100},
	"search.auto_recall_min_score": {0, 1},
	"search.auto_recall_budget_ms": {0, 10_000},
	"embedding.timeout_seconds":    {1, 600},
	"rollup.fresh_days":            {1, 3_650},
	"rollup.completed_days":        {0, 3_650},
	"rollup.git_days":              {1, 3_650},
	"rollup.hour":                  {0, 23},
	"org.raw_large_bytes":          {0, 1 << 40},
	"recall.extreme_max_calls":     {0, 100},
	"recall.extreme_seconds":       {1, 3_600},
	"recall.extreme_daily_calls":   {0, 10_000},
	"recall.vector_min_score":      {-1, 1},
	"limits.note_bytes":            {64 << 10, 1 << 30},
	"limits.transcript_line_bytes": {1 << 20, 256 << 20},
	"limits.ingest_bytes":          {1 << 10, 16 << 30},
	"search.recency_floor":         {-1, 1},
	"search.snippet_chars":         {200, 8_000},
	"evolution.shadow_share":       {0, 1},
	"evolution.daily_budget":       {0, 10_000},
	"evolution.timeout_seconds":    {1, 3_600},
	"evolution.min_verdicts":       {1, 10_000},
	"evolution.margin":             {0, 1},
	"evolution.price_slack":        {0, 100},
	"evolution.max_pairs":          {1, 100_000},
	"evolution.trial_days":         {1, 3_650},
	"evolution.propose_after":      {1, 10},
	"lessons.retire_after":         {1, 1_000},
	"night.max_calls":              {0, 10_000},
	"night.max_tokens":             {0, 100_000_000},
	"night.timeout_seconds":        {1, 3_600},
	"night.compile_after_days":     {1, 3_650},
	"night.max_day_chars":          {1_000, 10_000_000},
}

// choices lists the keys that take one of a few words.
var choices = map[string][]string{
	"distiller.kind":     {"extractive", "claude"},
	"embedding.provider": {"", "ollama", "openai"},
	"night.model":        {"", "claude"},
	"night.core":         {"propose", "apply", "off"},
	"search.citations":   {"auto", "on", "off"},
}

// clocks lists the keys that hold a local time of day, HH:MM.
var clocks = map[string]bool{"night.time": true}

// ValidClock reports whether s is a time of day HH:MM.
func ValidClock(s string) bool {
	return len(s) == 5 && s[2] == ':' && s[0] >= '0' && s[0] <= '2' && s[1] >= '0' && s[1] <= '9' &&
		(s[0] < '2' || s[1] <= '3') && s[3] >= '0' && s[3] <= '5' && s[4] >= '0' && s[4] <= '9'
}

// Range describes the allowed values of key ("200..1000000", "extractive|claude"),
// or "" when any value of its type is allowed.
func Range(key string) string {
	if b, ok := bounds[key]; ok {
		return fmt.Sprintf("%g..%g", b.min, b.max)
	}
	if c, ok := choices[key]; ok {
		return strings.Join(c, "|")
	}
	if clocks[key] {
		return "HH:MM"
	}
	return ""
}

// validate puts every key outside its range back to its value in before
// (the configuration before the layer just applied), with a warning naming
// the key, the value and the range.
func (e *Effective) validate(before *Config, beforeSources map[string]string) {
	walkPair(reflect.ValueOf(before).Elem(), reflect.ValueOf(&e.Config).Elem(), func(key string, prev, v reflect.Value) {
		bad := false
		if b, ok := bounds[key]; ok {
			var x float64
			switch v.Kind() {
			case reflect.Int, reflect.Int64:
				x = float64(v.Int())
			case reflect.Float64:
				x = v.Float()
			}
			bad = x < b.min || x > b.max || x != x
		}
		if c, ok := choices[key]; ok {
			bad = true
			for _, w := range c {
				if v.String() == w {
					bad = false
				}
			}
		}
		if clocks[key] && !ValidClock(v.String()) {
			bad = true
		}
		if !bad {
			return
		}
		src, ok := beforeSources[key]
		what := "the default"
		if ok {
			what = "the value from " + src
		}
		e.warn("%s = %v (from %s) is out of range %s; %s %v is used", key, v.Interface(), e.Source(key), Range(key), what, prev.Interface())
		v.Set(prev)
		if ok {
			e.sources[key] = src
		} else {
			delete(e.sources, key)
		}
	})
}

// defaultOf renders key's built-in value for a warning.
func defaultOf(key string) string {
	def := Default()
	out := ""
	walk(reflect.ValueOf(&def).Elem(), func(k string, v reflect.Value) {
		if k == key {
			out = fmt.Sprintf("%v", v.Interface())
			if v.Kind() == reflect.String {
				out = fmt.Sprintf("%q", v.String())
			}
		}
	})
	return out
}

// setValue sets a field from a decoded TOML value, refusing a value of
// the wrong type instead of guessing.
func setValue(v reflect.Value, raw any) error {
	switch v.Kind() {
	case reflect.String:
		s, ok := raw.(string)
		if !ok {
			return fmt.Errorf("want a string, got %v", raw)
		}
		v.SetString(s)
	case reflect.Bool:
		b, ok := raw.(bool)
		if !ok {
			return fmt.Errorf("want true or false, got %#v", raw)
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64:
		n, ok := raw.(int64)
		if !ok {
			return fmt.Errorf("want a whole number, got %#v", raw)
		}
		v.SetInt(n)
	case reflect.Float64:
		switch x := raw.(type) {
		case float64:
			v.SetFloat(x)
		case int64:
			v.SetFloat(float64(x))
		default:
			return fmt.Errorf("want a number, got %#v", raw)
		}
	case reflect.Slice:
		list, err := stringList(raw)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(list))
	default:
		return fmt.Errorf("unsupported kind %s", v.Kind())
	}
	return nil
}

// stringList reads a TOML array of strings.
func stringList(raw any) ([]string, error) {
	items, ok := raw.([]any)
	if !ok {
		if ss, ok := raw.([]string); ok {
			return ss, nil
		}
		return nil, fmt.Errorf("want a list of strings, got %#v", raw)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("want a list of strings, got %#v", it)
		}
		out = append(out, s)
	}
	return out, nil
}
