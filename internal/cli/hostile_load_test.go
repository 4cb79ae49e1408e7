//go:build linux

package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/testfile"
)

// Twenty `remember` processes into one table at once (each a session of
// the project): every one exits 0 within the suite's hang bound and in
// bounded memory, none answers "busy", and the table holds all twenty.
func TestHostileConcurrentRememberIntoOneTable(t *testing.T) {
	h := newHostile(t)
	if _, errOut, code := h.exec(t, "", "long", "on", "--project", h.proj); code != 0 {
		t.Fatalf("long on: %s", errOut)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
	defer cancel()
	var wg sync.WaitGroup
	outs := make([]string, 20)
	errs := make([]error, 20)
	rss := make([]int64, 20)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.CommandContext(ctx, memhookBin, "remember", "--project", h.proj, "--table", "Phones",
				"--key", fmt.Sprintf("person%02d", i), "--kind", "phone", "--value", fmt.Sprintf("555-01%02d", i), fmt.Sprintf("person%02d's phone is 555-01%02d", i, i))
			cmd.Env = envList(h.env)
			var b bytes.Buffer
			cmd.Stdout, cmd.Stderr = &b, &b
			errs[i] = cmd.Run()
			outs[i] = b.String()
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				rss[i] = ru.Maxrss << 10
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatalf("twenty concurrent remembers did not return within %s", hostileDeadline)
	}
	for i := range outs {
		if errs[i] != nil || strings.Contains(outs[i], "busy") || strings.Contains(outs[i], `"error"`) {
			t.Errorf("remember %d: %v\n%s", i, errs[i], outs[i])
		}
		if rss[i] > hostileRSS {
			t.Errorf("remember %d peaked at %d MB", i, rss[i]>>20)
		}
	}
	journal := readFile(t, filepath.Join(h.proj, ".claude", "memory_long", "tables", "journal.jsonl"))
	for i := range outs {
		if !strings.Contains(journal, fmt.Sprintf("555-01%02d", i)) {
			t.Errorf("person%02d's phone is not in the table's journal", i)
		}
	}
	out, errOut, code := h.exec(t, "", "recall", "--project", h.proj, "what is person07's phone")
	if code != 0 || !strings.Contains(out, "555-0107") {
		t.Errorf("recall of one of them: exit %d\n%s%s", code, out, errOut)
	}
}

// FIFOs planted in long-term memory where recall reads (a page, a month of
// records, the relations, CORE.md) are never opened: a writer polling them
// while recall runs finds no reader, and recall answers from the real page.
func TestHostileRecallNeverOpensAFIFO(t *testing.T) {
	h := newHostile(t)
	if _, errOut, code := h.exec(t, "", "long", "on", "--project", h.proj); code != 0 {
		t.Fatalf("long on: %s", errOut)
	}
	long := filepath.Join(h.proj, ".claude", "memory_long")
	testfile.Write(t, filepath.Join(long, "wiki", "Deploy.md"), "# Deploy\n\nThe deploy of the billing service runs on Fridays at noon.\n")
	fifos := []string{filepath.Join(long, "wiki", "Pipe.md"), filepath.Join(long, "records", "2026-12.md"), filepath.Join(long, "graph", "relations.md"), filepath.Join(long, "wiki", "_private", "Digest.md")}
	for _, f := range fifos {
		os.MkdirAll(filepath.Dir(f), 0o755)
		testfile.FIFO(t, f)
	}
	stop := make(chan struct{})
	opened := make(chan string, len(fifos))
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			for _, f := range fifos {
				// A non-blocking open for writing succeeds only while a
				// reader has the FIFO open.
				if fd, err := syscall.Open(f, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					syscall.Close(fd)
					opened <- f
				}
			}
		}
	}()
	for _, args := range [][]string{
		{"recall", "--project", h.proj, "when does the deploy of the billing service run"},
		{"index", "--project", h.proj},
		{"search", "--project", h.proj, "deploy billing"},
	} {
		out, errOut, code := h.exec(t, "", args...)
		if code != 0 || !strings.Contains(out, "Fridays") && args[0] != "index" {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	close(stop)
	select {
	case f := <-opened:
		t.Errorf("%s was opened by a reader", f)
	default:
	}
}
