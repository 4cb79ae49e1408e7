package testfile

import (
	"os"
	"strings"
	"testing"
)

// SkipsEnv names the file where tests record what they could not run for
// want of something on the machine; scripts/test (`make test`) sets it and
// prints the list at the end of the run, with the commands that fix it.
const SkipsEnv = "CEREBRO_TEST_SKIPS"

// Missing is something a test needs from the machine, and how to get it.
type Missing struct {
	What string // "chromium", "../shared beside the repository"
	Fix  string // the command that installs it
}

// SkipMissing records that the test cannot run without m and skips it; in
// CI (CI set) it fails the test instead, since CI installs everything.
func SkipMissing(t testing.TB, m Missing, why string) {
	t.Helper()
	record(t, m, "skipped")
	if os.Getenv("CI") != "" {
		t.Fatalf("%s: %s is missing, and CI must have it: %s", why, m.What, m.Fix)
	}
	t.Skipf("%s: %s is missing (%s); `make test` lists every skip at the end", why, m.What, m.Fix)
}

// NoteMissing records that the test ran with less than it could for want
// of m (it checked its own testdata only), without skipping it.
func NoteMissing(t testing.TB, m Missing) { record(t, m, "ran without it") }

// record appends "what<TAB>fix<TAB>how<TAB>test" to the skips file; one
// short O_APPEND write per line keeps the lines of parallel packages whole.
func record(t testing.TB, m Missing, how string) {
	path := os.Getenv(SkipsEnv)
	if path == "" {
		return
	}
	line := strings.Join([]string{m.What, m.Fix, how, t.Name()}, "\t") + "\n"
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Logf("testfile: cannot record the skip in %s: %v", path, err)
		return
	}
	defer f.Close()
	f.WriteString(line)
}

// SharedFolder is the ../shared folder of fixtures and references.
var SharedFolder = Missing{
	What: "../shared (the fixtures and references beside the repository)",
	Fix:  "put the shared folder beside the checkout, e.g. ln -s /path/to/shared ../shared",
}

// Chromium is the browser the `memhook serve` tests drive.
var Chromium = Missing{What: "chromium (the browser tests of memhook serve)", Fix: "sudo apt-get install -y chromium"}
