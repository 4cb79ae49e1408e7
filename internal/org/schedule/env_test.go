package schedule

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// A scheduler command sees only the listed variables, and the entry goes
// to the user's home and config folder.
func TestExecutorEnvAndUserTarget(t *testing.T) {
	env := map[string]string{"PATH": "/bin", "HOME": "/h", "SECRET_TOKEN": "x"}
	get := func(k string) string { return env[k] }
	if got := NewExecutor(get).Env; !slices.Equal(got, []string{"PATH=/bin", "HOME=/h"}) {
		t.Fatalf("env = %v", got)
	}
	if tg, err := UserTarget(get); err != nil || tg.Home != "/h" || tg.ConfigHome != filepath.Join("/h", ".config") {
		t.Fatalf("target = %+v, %v", tg, err)
	}
	env["XDG_CONFIG_HOME"] = "/c"
	if tg, _ := UserTarget(get); tg.ConfigHome != "/c" {
		t.Fatalf("XDG_CONFIG_HOME ignored: %+v", tg)
	}
	if _, err := UserTarget(func(string) string { return "" }); !errors.Is(err, ErrNoHome) {
		t.Fatalf("no home: %v", err)
	}
}
