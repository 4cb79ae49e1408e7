package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/bench/internal/hookreplay"
)

// replay plays one transcript through the hooks, each event at its own
// minute from start: the transcript's timestamps are moved to the same
// clock, so the sections land on the simulated day.
func (w *week) replay(file, session string, start time.Time) {
	lines, err := hookreplay.ReadLines(file)
	check(err)
	stem := strings.TrimSuffix(filepath.Base(file), ".jsonl")
	tr := filepath.Join(w.trDir, session+".jsonl")
	subs, _ := filepath.Glob(filepath.Join(filepath.Dir(file), stem+"__subagents__*.jsonl"))
	for _, s := range subs {
		name := strings.TrimPrefix(filepath.Base(s), stem+"__subagents__")
		dst := filepath.Join(w.trDir, session, "subagents", name)
		check(os.MkdirAll(filepath.Dir(dst), 0o755))
		data, err := os.ReadFile(s)
		check(err)
		check(os.WriteFile(dst, data, 0o644))
	}
	at := start
	tick := func() time.Time { at = at.Add(30 * time.Second); return at }
	hook := func(event string, kv ...string) string {
		return w.hook(tick(), session, tr, event, kv...)
	}
	f, err := os.Create(tr)
	check(err)
	hookreplay.Play(lines, hook, func(raw []byte) { f.Write(retime(raw, at)) })
	f.Close()
}

var timestampRe = regexp.MustCompile(`"timestamp":"[^"]*"`)

// retime moves a line's timestamps to the simulated clock.
func retime(raw []byte, at time.Time) []byte {
	return timestampRe.ReplaceAll(raw, []byte(`"timestamp":"`+at.UTC().Format("2006-01-02T15:04:05.000Z")+`"`))
}

// start runs a new session's SessionStart at t and returns its inject.
func (w *week) start(session string, t time.Time) string {
	inject, err := hookreplay.Inject(w.hook(t, session, filepath.Join(w.trDir, session+".jsonl"), "SessionStart", "source", "startup"))
	check(err)
	return inject
}

func (w *week) hook(t time.Time, session, tr, event string, kv ...string) string {
	prog, args := hookreplay.Command(*bin, *hotBin, event)
	in := hookreplay.Input(session, w.proj, tr, event, kv...)
	cmd := exec.Command(prog, args...)
	cmd.Env, cmd.Stdin, cmd.Dir = append(w.env, "CEREBRO_NOW="+t.Format(time.RFC3339)), bytes.NewReader(in), w.proj
	res, err := cmd.Output()
	check(err)
	return string(res)
}

func (w *week) memhook(t time.Time, args ...string) {
	cmd := exec.Command(*bin, args...)
	cmd.Env, cmd.Dir = append(w.env, "CEREBRO_NOW="+t.Format(time.RFC3339)), w.proj
	_, err := cmd.Output()
	check(err)
}
