package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Every key has a row in the policy, and every row names a key: a key
// added without deciding who may set it fails here.
func TestEveryKeyHasAPolicy(t *testing.T) {
	def := Default()
	keys := map[string]bool{}
	walk(reflect.ValueOf(&def).Elem(), func(key string, v reflect.Value) {
		keys[key] = true
		r, ok := Policy[key]
		if !ok {
			t.Errorf("%s has no row in config.Policy: decide who may set it", key)
			return
		}
		switch r.Who {
		case NarrowOn, NarrowOff:
			if v.Kind() != reflect.Bool {
				t.Errorf("%s: a switch rule on a %s", key, v.Kind())
			}
		case NarrowDown, NarrowUp:
			if k := v.Kind(); k != reflect.Int && k != reflect.Int64 && k != reflect.Float64 {
				t.Errorf("%s: a direction rule on a %s", key, k)
			}
		case NarrowTo:
			if v.Kind() != reflect.String || len(r.To) == 0 {
				t.Errorf("%s: a choice rule needs a string key and its allowed words", key)
			}
		}
		if r.Who != AnyLayer && r.What == "" {
			t.Errorf("%s: a refusal must say what the key is", key)
		}
	})
	for key := range Policy {
		if !keys[key] {
			t.Errorf("config.Policy has a row for %s, which is no key", key)
		}
	}
}

type trustSetup struct {
	dir, proj string
	env       map[string]string
}

func newTrustSetup(t *testing.T, user, project string) *trustSetup {
	dir := t.TempDir()
	s := &trustSetup{dir: dir, proj: filepath.Join(dir, "proj"), env: map[string]string{"HOME": dir}}
	os.MkdirAll(filepath.Join(s.proj, ".claude"), 0o755)
	s.env["CEREBRO_CONFIG"] = filepath.Join(dir, "user.toml")
	if user != "" {
		os.WriteFile(s.env["CEREBRO_CONFIG"], []byte(user), 0o644)
	}
	os.WriteFile(ProjectFile(s.proj), []byte(project), 0o644)
	return s
}

func (s *trustSetup) load(t *testing.T) *Effective {
	e := Load(mapEnv(s.env), s.proj)
	return e
}

// What a repository plants in its project file cannot run a program, send
// memory anywhere, switch a guard off, raise a limit or a budget, or spend
// on a model; each refusal is named and the user's value applies.
func TestProjectFileOnlyNarrows(t *testing.T) {
	cases := []struct {
		name, user, project string
		check               func(e *Effective) bool
		ignored             string
	}{
		{"program", "", "[distiller]\ncommand = \"./evil.sh\"\n",
			func(e *Effective) bool { return e.Distiller.Command == "claude" }, "may not set distiller.command"},
		{"night program", "", "[night]\ncommand = \"/tmp/x\"\n",
			func(e *Effective) bool { return e.Night.Command == "claude" }, "may not set night.command"},
		{"endpoint", "", "[embedding]\nurl = \"http://evil:1/\"\napi_key_env = \"AWS_SECRET_ACCESS_KEY\"\n",
			func(e *Effective) bool { return e.Embedding.URL == "" && e.Embedding.APIKeyEnv == "" }, "may not set embedding.url"},
		{"provider", "", "[embedding]\nprovider = \"openai\"\n",
			func(e *Effective) bool { return e.Embedding.Provider == "" }, `may not set embedding.provider = "openai"`},
		{"guard off", "", "[short]\nscan_secrets = false\n",
			func(e *Effective) bool { return e.Short.ScanSecrets }, "may not switch short.scan_secrets off"},
		{"limit up", "", "[limits]\nnote_bytes = 1073741824\ntranscript_line_bytes = 268435456\n",
			func(e *Effective) bool {
				return e.Limits.NoteBytes == 8<<20 && e.Limits.TranscriptLineBytes == 16<<20
			}, "may not raise limits.note_bytes from 8388608 to 1073741824"},
		{"limit above the user's", "[limits]\nnote_bytes = 1048576\n", "[limits]\nnote_bytes = 4194304\n",
			func(e *Effective) bool { return e.Limits.NoteBytes == 1<<20 }, "may not raise limits.note_bytes from 1048576"},
		{"budget up", "", "[distiller]\ndaily_budget = 9999\ntimeout_seconds = 3000\n[night]\nmax_calls = 9000\n",
			func(e *Effective) bool {
				return e.Distiller.DailyBudget == 20 && e.Distiller.TimeoutSeconds == 120 && e.Night.MaxCalls == 40
			}, "may not raise distiller.daily_budget"},
		{"model kind", "", "[distiller]\nkind = \"claude\"\nmodel = \"opus\"\n[night]\nmodel = \"claude\"\n",
			func(e *Effective) bool {
				return e.Distiller.Kind == "extractive" && e.Distiller.Model == "" && e.Night.Model == ""
			}, `may not set distiller.kind = "claude"`},
		{"serve off loopback", "", "[serve]\nallow_remote = true\n",
			func(e *Effective) bool { return !e.Serve.AllowRemote }, "may not set serve.allow_remote"},
		{"trust itself", "", "trust_project_config = [\"/\"]\n",
			func(e *Effective) bool { return len(e.TrustProjectConfig) == 0 }, "may not set trust_project_config"},
		{"guard lowered", "", "[search]\nauto_recall_min_score = 0.1\n",
			func(e *Effective) bool { return e.Search.AutoRecallScore == 0.5 }, "may not lower search.auto_recall_min_score"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newTrustSetup(t, c.user, c.project).load(t)
			if !c.check(e) {
				t.Errorf("a project value applied: %+v %+v %+v %+v", e.Distiller, e.Embedding, e.Limits, e.Night)
			}
			if all := strings.Join(e.Ignored, "\n"); !strings.Contains(all, "ignored: project config "+c.ignored) {
				t.Errorf("Ignored = %q, want it to name %q", all, c.ignored)
			}
			for _, s := range e.Settings() {
				if strings.HasPrefix(s.Source, SourceProject) && Policy[s.Key].Who != AnyLayer {
					t.Errorf("%s = %s still from the project file", s.Key, s.Value)
				}
			}
		})
	}
}

// Narrowing is allowed: a project may lower limits and budgets, switch a
// guard on, pick the extractive distiller, and tune freely what costs
// nothing.
func TestProjectFileMayNarrow(t *testing.T) {
	s := newTrustSetup(t,
		"[distiller]\nkind = \"claude\"\n[search]\nauto_recall = true\n[short]\nscan_secrets = false\n",
		"[distiller]\nkind = \"extractive\"\ndaily_budget = 3\n[limits]\nnote_bytes = 1048576\n"+
			"[search]\nauto_recall = false\nhalf_life_days = 7\n[short]\nscan_secrets = true\nflush_replies = 5\n")
	e := s.load(t)
	if e.Distiller.Kind != "extractive" || e.Distiller.DailyBudget != 3 || e.Limits.NoteBytes != 1<<20 ||
		e.Search.AutoRecall || e.Search.HalfLifeDays != 7 || !e.Short.ScanSecrets || e.Short.FlushReplies != 5 {
		t.Fatalf("narrowing was refused: %+v %+v %+v %+v", e.Distiller, e.Limits, e.Search, e.Short)
	}
	if len(e.Ignored) != 0 {
		t.Fatalf("ignored %v", e.Ignored)
	}
	if got := e.Source("limits.note_bytes"); !strings.HasPrefix(got, SourceProject) {
		t.Errorf("source %q", got)
	}
}

// A project value out of range falls back to the user's value, never to
// the default: a limit the user lowered stays lowered.
func TestProjectOutOfRangeKeepsTheUsersValue(t *testing.T) {
	e := newTrustSetup(t, "[limits]\nnote_bytes = 1048576\n", "[limits]\nnote_bytes = 1\n").load(t)
	if e.Limits.NoteBytes != 1<<20 {
		t.Fatalf("note_bytes = %d, want the user's 1048576", e.Limits.NoteBytes)
	}
	if !strings.HasPrefix(e.Source("limits.note_bytes"), SourceUser) {
		t.Errorf("source %q", e.Source("limits.note_bytes"))
	}
	if all := strings.Join(e.Warnings, "\n"); !strings.Contains(all, "out of range") || !strings.Contains(all, "the value from user file") {
		t.Errorf("warnings %q", all)
	}
}

// The environment is the user's: it sets what a project may not.
func TestEnvironmentIsTheUsers(t *testing.T) {
	s := newTrustSetup(t, "", "[distiller]\ncommand = \"./evil\"\n")
	s.env["CEREBRO_DISTILLER_COMMAND"] = "/opt/claude"
	s.env["CEREBRO_SERVE_ALLOW_REMOTE"] = "true"
	e := s.load(t)
	if e.Distiller.Command != "/opt/claude" || !e.Serve.AllowRemote {
		t.Fatalf("env refused: %+v %+v", e.Distiller, e.Serve)
	}
	if !strings.HasPrefix(e.Source("distiller.command"), SourceEnv) {
		t.Errorf("source %q", e.Source("distiller.command"))
	}
}

// trust_project_config opts a project in by its exact root, after links
// are resolved; a link to a trusted root is trusted, a folder under it or
// a relative entry is not.
func TestTrustProjectConfig(t *testing.T) {
	planted := "[distiller]\ncommand = \"/opt/their-claude\"\n[limits]\nnote_bytes = 33554432\n"
	s := newTrustSetup(t, "", planted)
	link := filepath.Join(s.dir, "link")
	if err := os.Symlink(s.proj, link); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(s.env["CEREBRO_CONFIG"], []byte("trust_project_config = [\""+link+"\"]\n"), 0o644)
	e := s.load(t)
	if !e.Trusted || e.Distiller.Command != "/opt/their-claude" || e.Limits.NoteBytes != 32<<20 || len(e.Ignored) != 0 {
		t.Fatalf("trusted project refused: trusted %v, %+v, ignored %v", e.Trusted, e.Distiller, e.Ignored)
	}

	sub := filepath.Join(s.proj, "sub")
	os.MkdirAll(filepath.Join(sub, ".claude"), 0o755)
	os.WriteFile(ProjectFile(sub), []byte(planted), 0o644)
	os.WriteFile(s.env["CEREBRO_CONFIG"], []byte("trust_project_config = [\""+s.proj+"\", \"proj\"]\n"), 0o644)
	e = Load(mapEnv(s.env), sub)
	if e.Trusted || e.Distiller.Command != "claude" {
		t.Fatalf("a folder under a trusted root was trusted: %+v", e.Distiller)
	}

	os.WriteFile(s.env["CEREBRO_CONFIG"], nil, 0o644)
	s.env["CEREBRO_TRUST_PROJECT_CONFIG"] = "/nowhere" + string(os.PathListSeparator) + s.proj
	if e := s.load(t); !e.Trusted {
		t.Fatal("the environment's trust list was not read")
	}
}
