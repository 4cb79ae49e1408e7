package cli

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Every hook is a fresh memhook process, so whatever a package does at init
// (a package-level regexp, a big map, a parsed template) is paid on every
// turn whether the hook uses it or not. Allocations at init are
// deterministic, unlike time, so they are what this guards: a pattern
// table compiled at init (internal/recall/blackbox once allocated 1.1 MB there)
// fails here; declare it with internal/text/lazyregexp or build it in a
// sync.OnceValue instead.
const (
	initOwnPackageBytes  = 32 << 10  // any one package of this module
	initOwnPackageAllocs = 400       //
	initOwnTotalBytes    = 128 << 10 // all packages of this module together
	// The whole binary, dependencies included. github.com/yuin/goldmark
	// (the serve pages' Markdown, #32) takes ~570 KB of it: its parser
	// tables, HTML entities and linkify patterns. Measured 2026-12-01 with
	// GODEBUG=inittrace=1 memhook version: 354 KB and 4.2 ms of init
	// before it, 924 KB and 5.2 ms with it (min of 15 runs each).
	initBinaryTotalBytes = 1 << 20
)

type initCost struct {
	pkg           string
	bytes, allocs int
}

// initCosts runs the built memhook with GODEBUG=inittrace=1 and reads
// the runtime's line per package initialised:
// "init PKG @T ms, C ms clock, B bytes, A allocs".
func initCosts(t *testing.T) []initCost {
	t.Helper()
	cmd := exec.Command(memhookBin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("memhook version: %v\n%s", err, stderr.String())
	}
	var out []initCost
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("unreadable inittrace line %q", sc.Text())
		}
		out = append(out, initCost{pkg: f[1], bytes: b, allocs: a})
	}
	return out
}

func TestInitCostStaysSmall(t *testing.T) {
	costs := initCosts(t)
	own, total, ownSeen := 0, 0, 0
	for _, c := range costs {
		total += c.bytes
		if !strings.HasPrefix(c.pkg, "github.com/cerebro-mem/cerebro/") {
			continue
		}
		ownSeen++
		own += c.bytes
		if c.bytes > initOwnPackageBytes || c.allocs > initOwnPackageAllocs {
			t.Errorf("%s allocates %d bytes in %d allocations at init (budget %d bytes, %d allocations): make its package-level tables lazy",
				c.pkg, c.bytes, c.allocs, initOwnPackageBytes, initOwnPackageAllocs)
		}
	}
	// The trace must have been read: memhook links dozens of packages
	// with init work, several of them this module's.
	if len(costs) < 50 || ownSeen < 3 {
		t.Fatalf("inittrace gave %d packages, %d of this module: format changed?", len(costs), ownSeen)
	}
	if own > initOwnTotalBytes {
		t.Errorf("this module's packages allocate %d bytes at init, budget %d", own, initOwnTotalBytes)
	}
	if total > initBinaryTotalBytes {
		t.Errorf("memhook allocates %d bytes at init, dependencies included; budget %d (a new dependency with heavy init?)", total, initBinaryTotalBytes)
	}
	t.Logf("init: %d packages, %d bytes in all, %d bytes in this module's %d", len(costs), total, own, ownSeen)
}
