package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// A token in memory never reaches the black box's model calls: remember
// keeps its marker, the naming prompt and the research prompts pass the
// secret guard (a note the person wrote holds the token), and a
// recall made inside cerebro's own call (the answering call's only way to
// read memory) prints its answer guarded — still one JSON object. The
// person's own recall prints memory as it is, and a user who switched
// short.scan_secrets off gets the nested answer unguarded too.
func TestBlackBoxModelCallsPassTheGuard(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in claude is a shell script")
	}
	env, proj := bbEnv(t)
	bin := t.TempDir()
	stand := filepath.Join(bin, "claude")
	// It names the table, rephrases a question into the record's words
	// (so the walk's text search brings the record as evidence), and
	// answers.
	os.WriteFile(stand, []byte("#!/bin/sh\np=$(cat); printf '%s\\n' \"$p\" >> '"+bin+"/prompts'\n"+
		"case \"$p\" in NAME-TABLE*) echo deploy_keys;; REPHRASE*) echo 'walrus census deploy token';; *) echo 'Ask the census office.';; esac\n"), 0o755)
	env["CEREBRO_DISTILLER_COMMAND"] = stand
	token := "ghp_" + strings.Repeat("aB3dE5gH7jK9", 3)
	prompts := func() string {
		b, _ := os.ReadFile(filepath.Join(bin, "prompts"))
		return string(b)
	}

	out, _, code := run(t, env, "", "remember", "--project", proj, "the deploy token of the walrus census is "+token, "--table", "Ключи", "--key", "deploy")
	if code != 0 || object(t, out)["tables_created"].([]any)[0] != "deploy_keys" {
		t.Fatalf("the model names the table: %s", out)
	}
	if p := prompts(); strings.Contains(p, token) || !strings.Contains(p, "[REDACTED:") {
		t.Fatalf("the naming prompt carries the token:\n%s", p)
	}
	// remember keeps the marker, never the token (the guard of every way
	// into memory); a note the person wrote by hand still holds it, and is
	// what the recalls below read.
	if got := holds(t, filepath.Join(proj, ".claude"), token); len(got) > 0 {
		t.Fatalf("remember kept the token in %v", got)
	}
	testfile.Write(t, filepath.Join(proj, ".claude", "memory_long", "wiki", "Census.md"),
		"# Census\n\nThe deploy token of the walrus census is "+token+", kept by hand.\n")
	out, _, _ = run(t, env, "", "recall", "--project", proj, "--depth", "extreme", "who keeps the secrets of the polar survey")
	if object(t, out)["depth_used"].(float64) != 5 {
		t.Fatalf("the question climbs to the research walk: %s", out)
	}
	if p := prompts(); strings.Count(p, "You research one question") != 1 || strings.Contains(p, token) || !strings.Contains(p, "walrus census is [REDACTED:") {
		t.Fatalf("the research prompts carry the token:\n%s", p)
	}

	own, _, _ := run(t, env, "", "recall", "--project", proj, "walrus census deploy token")
	if !strings.Contains(own, token) {
		t.Fatalf("the person's own recall shows memory as it is: %s", own)
	}
	env[claude.NestedEnv] = "1"
	nested, _, _ := run(t, env, "", "recall", "--project", proj, "walrus census deploy token")
	a := object(t, nested)
	if strings.Contains(nested, token) || !strings.Contains(nested, "[REDACTED:") || a["depth_used"].(float64) != 2 || a["kind"] == "none" {
		t.Fatalf("a nested recall prints its answer guarded: %s", nested)
	}
	user := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(user, []byte("[short]\nscan_secrets = false\n"), 0o644)
	env["CEREBRO_CONFIG"] = user
	if off, _, _ := run(t, env, "", "recall", "--project", proj, "walrus census deploy token"); !strings.Contains(off, token) {
		t.Fatalf("with the scan off the nested answer is as stored: %s", off)
	}
}
