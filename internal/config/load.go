package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Loading: each layer merged over the one before (see Load).

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
// empty). It never fails on what a file or variable holds: configuration
// must never cost a session its memory. A missing file is silent; a file
// that cannot be read or parsed, a value of the wrong type, an unknown key
// or a value out of its range each add a warning naming the key (and the
// allowed range) and leave that key at the value the layers before gave
// it. A project key the trust policy refuses keeps the user's value and is
// named in Ignored.
func Load(env Env, projectRoot string) *Effective {
	e := &Effective{Config: Default(), sources: map[string]string{}, UserFile: UserFile(env)}
	e.loadUser()
	if projectRoot != "" {
		e.ProjectFile = ProjectFile(projectRoot)
		e.Trusted = trustedRoot(e.userTrust(env), projectRoot)
		user, userSources := e.layer(func() { e.mergeFile(e.ProjectFile, SourceProject) })
		if !e.Trusted {
			e.narrow(&user, userSources)
		}
	}
	e.layer(func() { e.mergeEnv(env) })
	return e
}

// layer applies one layer, then puts every key it set out of range back
// to the value before it (never to the default: a project's value out of
// range must not undo the user's lower limit). It returns that earlier
// configuration and its sources.
func (e *Effective) layer(apply func()) (Config, map[string]string) {
	before := e.Config
	before.TrustProjectConfig = slices.Clone(before.TrustProjectConfig)
	sources := maps.Clone(e.sources)
	apply()
	e.validate(&before, sources)
	return before, sources
}

// userTrust is trust_project_config as the user's layers set it: the
// environment variable, if set, wins over the user file as it does later.
func (e *Effective) userTrust(env Env) []string {
	if raw := env(EnvName("trust_project_config")); raw != "" {
		return filepath.SplitList(raw)
	}
	return e.TrustProjectConfig
}

// maxConfigBytes bounds the read of a config file, which a cloned
// repository may plant as anything (a FIFO, a link to /dev/zero).
const maxConfigBytes = 1 << 20

func (e *Effective) mergeFile(path, layer string) {
	data, err := safefs.ReadFile(path, maxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	e.mergeData(path, layer, data, err)
}

// mergeData applies what a read of path returned (data, or the error that
// stopped it).
func (e *Effective) mergeData(path, layer string, data []byte, err error) {
	if err != nil {
		e.warn("read config %s: %v; its settings are ignored", path, err)
		e.Broken = append(e.Broken, e.Warnings[len(e.Warnings)-1])
		return
	}
	var m map[string]any
	if _, err := toml.Decode(string(data), &m); err != nil {
		// One bad line must not cost the file's other settings: read it
		// again line by line and keep every line that parses.
		e.warn("parse config %s: %v; reading it line by line", path, err)
		e.Broken = append(e.Broken, e.Warnings[len(e.Warnings)-1])
		m = decodeLines(e, path, string(data))
	}
	e.apply(m, path, layer)
}

// decodeLines reads a broken file one "key = value" line at a time under
// its [section] headers; lines that do not parse are warned and skipped.
func decodeLines(e *Effective, path, data string) map[string]any {
	out := map[string]any{}
	section := ""
	for n, line := range strings.Split(data, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "[") {
			section = strings.TrimSpace(strings.Trim(strings.SplitN(t, "#", 2)[0], "[] \t"))
			continue
		}
		var one map[string]any
		if _, err := toml.Decode(t, &one); err != nil {
			e.warn("%s:%d: %q does not parse; the default is used", path, n+1, t)
			continue
		}
		for k, v := range one {
			if section == "" {
				out[k] = v
				continue
			}
			sec, _ := out[section].(map[string]any)
			if sec == nil {
				sec = map[string]any{}
				out[section] = sec
			}
			sec[k] = v
		}
	}
	return out
}

// apply sets every known key of m, warning about unknown keys and values
// of the wrong type.
func (e *Effective) apply(m map[string]any, path, layer string) {
	byKey := map[string]reflect.Value{}
	walk(reflect.ValueOf(&e.Config).Elem(), func(key string, v reflect.Value) { byKey[key] = v })
	secs := make([]string, 0, len(m))
	for k := range m {
		secs = append(secs, k)
	}
	sort.Strings(secs)
	for _, sec := range secs {
		table, ok := m[sec].(map[string]any)
		if !ok {
			f, known := byKey[sec]
			if !known {
				e.warn("%s: unknown key %q ignored", path, sec)
				continue
			}
			if err := setValue(f, m[sec]); err != nil {
				e.warn("%s: %s: %v; it is ignored", path, sec, err)
				continue
			}
			e.sources[sec] = layer + " " + path
			continue
		}
		keys := make([]string, 0, len(table))
		for k := range table {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			key := sec + "." + k
			f, ok := byKey[key]
			if !ok {
				e.warn("%s: unknown key %q ignored", path, key)
				continue
			}
			if err := setValue(f, table[k]); err != nil {
				e.warn("%s: %s: %v; the default %s is used", path, key, err, defaultOf(key))
				continue
			}
			e.sources[key] = layer + " " + path
		}
	}
}

func (e *Effective) mergeEnv(env Env) {
	cfg := reflect.ValueOf(&e.Config).Elem()
	for _, f := range fields() {
		key, name := f.key, f.env
		raw := env(name)
		if raw == "" {
			continue
		}
		v := cfg.FieldByIndex(f.index)
		old := reflect.New(v.Type()).Elem()
		old.Set(v)
		if err := setScalar(v, raw); err != nil {
			v.Set(old)
			e.warn("%s: %v; %s is ignored", name, err, name)
			continue
		}
		e.sources[key] = SourceEnv + " " + name
	}
}

// warn records a problem once.
func (e *Effective) warn(format string, args ...any) {
	w := fmt.Sprintf(format, args...)
	for _, have := range e.Warnings {
		if have == w {
			return
		}
	}
	e.Warnings = append(e.Warnings, w)
}

// EnvName is the variable that overrides key.
func EnvName(key string) string {
	return "CEREBRO_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}
