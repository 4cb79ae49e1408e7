package factory

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/store/gitrepo"
)

// A sync without its remote is an error the front end can tell apart (the
// daily job stays quiet on it) and whose hint names the user's file; with
// org.remote set, the desk's vault is pushed.
func TestSyncsNeedTheUsersRemote(t *testing.T) {
	home := t.TempDir()
	user := filepath.Join(home, "cerebro.toml")
	env := map[string]string{"HOME": home, "CEREBRO_HOME": filepath.Join(home, "desk"), "CEREBRO_CONFIG": user,
		"CEREBRO_STATE_DIR": filepath.Join(home, "state")}
	f := New(System{Getenv: func(k string) string { return env[k] }})
	var h interface{ Hint() string }
	if _, err := f.OrgSync(context.Background()); !errors.Is(err, ErrNoRemote) || err.Error() != "org sync: org.remote is not set" ||
		!errors.As(err, &h) || !strings.Contains(h.Hint(), user) {
		t.Fatalf("org sync without org.remote: %v", err)
	}
	if _, err := f.LongSync(context.Background(), nil); !errors.Is(err, ErrNoRemote) || err.Error() != "long sync: long.remote is not set" {
		t.Fatalf("long sync without long.remote: %v", err)
	}

	bare := filepath.Join(home, "org.git")
	if err := gitrepo.InitBare(bare); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(user, []byte("[org]\nremote = \"file://"+bare+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f = New(System{Err: io.Discard, Getenv: func(k string) string { return env[k] }})
	if _, err := f.OpenOrCreateOrg(); err != nil {
		t.Fatal(err)
	}
	res, err := f.OrgSync(context.Background())
	if err != nil || res.State != gitrepo.SyncPushed {
		t.Fatalf("first org sync: %+v %v", res, err)
	}
}
