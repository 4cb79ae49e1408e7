package blackbox

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/claude"
	"github.com/cerebro-mem/cerebro/internal/recall/tables"
	"github.com/cerebro-mem/cerebro/internal/text/secrets"
)

// namer writes a stand-in `claude` that keeps each prompt and its
// arguments, then prints reply and exits with code.
func namer(t *testing.T, b *Box, reply string, code int) (dir string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in claude is a shell script")
	}
	dir = t.TempDir()
	cmd := filepath.Join(dir, "claude")
	script := "#!/bin/sh\nd='" + dir + "'\nn=$(cat \"$d/calls\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \"$d/calls\"\n" +
		"printf '%s\\n' \"$@\" > \"$d/args.$n\"\ncat > \"$d/prompt.$n\"\nprintf '%s\\n' '" + reply + "'\n" +
		"[ " + map[bool]string{true: "1", false: "0"}[code != 0] + " = 1 ] && { echo 'model unavailable' >&2; exit 1; }\nexit 0\n"
	if err := os.WriteFile(cmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	b.Namer = ClaudeResearch{Runner: claude.Runner{Command: cmd, Dir: b.Root, Env: []string{"PATH=/usr/bin:/bin"}, Guard: secrets.Redacted}}
	return dir
}

// A table asked for by parameter is named by one claude -p call; the
// whitelist still judges the name; the choice is kept, so the next
// remember and a recall with the same name reach the same table without
// a call.
func TestTableNamedByTheModel(t *testing.T) {
	b := newBox(t)
	dir := namer(t, b, "friends_of_dima", 0)
	a := remember(t, b, `{"text":"Миша дружит с Димой со школы","table":"Друзья Димы","key":"Миша","kind":"since","value":"школа"}`)
	if strings.Join(a.TablesCreated, ",") != "friends_of_dima" || calls(dir) != 1 ||
		!strings.Contains(a.Params["table"].Note, "named friends_of_dima by claude -p (a new table") {
		t.Fatalf("one naming call names the table: calls %d %+v", calls(dir), a)
	}
	prompt, _ := os.ReadFile(filepath.Join(dir, "prompt.1"))
	args, _ := os.ReadFile(filepath.Join(dir, "args.1"))
	if !strings.HasPrefix(string(prompt), "NAME-TABLE") || !strings.Contains(string(prompt), "«Друзья Димы»") || strings.Contains(string(args), "Друзья") ||
		strings.Contains(string(args), "allowedTools") || !strings.Contains(string(args), "--tools\n\n") {
		t.Fatalf("the prompt goes on stdin, the call gets no tool:\nargs %s\nprompt %s", args, prompt)
	}
	again := remember(t, b, `{"text":"Коля тоже","table":"Друзья Димы","key":"Коля","kind":"since","value":"институт"}`)
	if calls(dir) != 1 || again.Stores[1].Table != "friends_of_dima" || len(again.TablesCreated) != 0 {
		t.Fatalf("the same asked name reaches the same table without a call: calls %d %+v", calls(dir), again)
	}
	r := recall(t, b, `{"text":"с каких пор Коля","table":"Друзья Димы","key":"Коля"}`)
	if r.DepthUsed != 1 || len(r.Items) != 1 || r.Items[0].Data.(tables.Cell).Table != "friends_of_dima" || !strings.Contains(r.Params["table"].Note, "is the table friends_of_dima") {
		t.Fatalf("recall by the asked name: %+v", r)
	}
	// A table that exists by the asked name costs no call.
	remember(t, b, `{"text":"x","table":"friends_of_dima","key":"Оля","kind":"since","value":"2020"}`)
	if calls(dir) != 1 {
		t.Fatalf("an existing table is not renamed: %d calls", calls(dir))
	}
	// The model may reuse a table that exists.
	reuse := remember(t, b, `{"text":"Петя — друг Димы","table":"приятели Димы","key":"Петя","kind":"since","value":"2021"}`)
	if calls(dir) != 2 || reuse.Stores[1].Table != "friends_of_dima" || !strings.Contains(reuse.Params["table"].Note, "an existing table it reuses") {
		t.Fatalf("reuse: calls %d %+v", calls(dir), reuse)
	}
}

// Whatever the model answers reaches SQL only through the whitelist; a
// refused name, a failed call or no model at all fall back to the asked
// name transliterated, and the table's fate says why.
func TestTableNamingFallsBack(t *testing.T) {
	for _, c := range []struct {
		name, reply string
		code        int
		why         string
	}{
		{"refused", "x; DROP TABLE kontakty", 0, `the whitelist refused the model's name (name "x; DROP TABLE kontakty" refused: character ';'`},
		{"keyword", "select", 0, `normalises to the SQL keyword "select"`},
		{"failed", "", 1, "the naming call failed: run "},
		{"none", "", -1, "no claude command to name it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBox(t)
			dir := ""
			if c.code >= 0 {
				dir = namer(t, b, c.reply, c.code)
			}
			a := remember(t, b, `{"text":"Миша","table":"Друзья Димы","key":"Миша"}`)
			note := a.Params["table"].Note
			if strings.Join(a.TablesCreated, ",") != "druzya_dimy" || !strings.Contains(note, "named druzya_dimy by transliteration: ") || !strings.Contains(note, c.why) {
				t.Fatalf("fallback: %+v\n%s", a.TablesCreated, note)
			}
			if dir != "" && calls(dir) != 1 {
				t.Fatalf("one call, then the fallback: %d", calls(dir))
			}
			ts, _ := b.Tables.Describe()
			if len(ts) != 1 {
				t.Fatalf("no table of the model's name was made: %+v", ts)
			}
		})
	}
}

// The naming prompt carries the remembered phrase, so it passes the
// secret guard like every prompt that leaves for a model.
func TestNamingPromptPassesTheGuard(t *testing.T) {
	b := newBox(t)
	dir := namer(t, b, "deploy_keys", 0)
	token := "ghp_" + strings.Repeat("aB3dE5gH7jK9", 3)
	a := remember(t, b, `{"text":"ключ деплоя `+token+`","table":"Ключи","key":"deploy","kind":"token","value":"см. запись"}`)
	prompt, _ := os.ReadFile(filepath.Join(dir, "prompt.1"))
	if calls(dir) != 1 || strings.Join(a.TablesCreated, ",") != "deploy_keys" {
		t.Fatalf("one naming call: %d %+v", calls(dir), a)
	}
	if strings.Contains(string(prompt), token) || !strings.Contains(string(prompt), "[REDACTED:") {
		t.Fatalf("the token reached the model:\n%s", prompt)
	}
}
