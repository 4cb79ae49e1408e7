package schedule

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Executor applies plans and asks schedulers what is installed.
type Executor struct {
	// Env is the whole environment of the commands it runs ("KEY=value").
	// Commands are looked up on its PATH, not on the process's.
	Env []string
}

func (e *Executor) getenv(key string) string {
	for i := len(e.Env) - 1; i >= 0; i-- {
		k, v, ok := strings.Cut(e.Env[i], "=")
		if ok && (k == key || runtime.GOOS == "windows" && strings.EqualFold(k, key)) {
			return v
		}
	}
	return ""
}

// LookPath finds name on the executor's PATH.
func (e *Executor) LookPath(name string) (string, error) {
	exts := []string{""}
	if runtime.GOOS == "windows" {
		exts = append(exts, strings.Split(strings.ToLower(orDefault(e.getenv("PATHEXT"), ".com;.exe;.bat;.cmd")), ";")...)
	}
	for _, dir := range filepath.SplitList(e.getenv("PATH")) {
		if dir == "" {
			continue
		}
		for _, ext := range exts {
			p := filepath.Join(dir, name+ext)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode()&0o111 != 0) {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%s not found on PATH", name)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// Output runs argv with stdin and returns its standard output; a failure
// carries the command's standard error.
func (e *Executor) Output(argv []string, stdin string) (string, error) {
	path, err := e.LookPath(argv[0])
	if err != nil {
		return "", fmt.Errorf("run %s: %w", argv[0], err)
	}
	var out, errb bytes.Buffer
	run := func() error {
		out.Reset()
		errb.Reset()
		cmd := exec.Command(path, argv[1:]...)
		cmd.Env = e.Env
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Stdout, cmd.Stderr = &out, &errb
		return cmd.Run()
	}
	err = run()
	// A just-written executable can be briefly busy when another thread
	// forked while it was open for writing (golang.org/issue/22315).
	for try := 0; try < 5 && errors.Is(err, syscall.ETXTBSY); try++ {
		time.Sleep(20 * time.Millisecond)
		err = run()
	}
	if err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = strings.TrimSpace(out.String())
		}
		return out.String(), fmt.Errorf("run %s: %w: %s", shellJoin(argv), err, msg)
	}
	return out.String(), nil
}

// Apply performs the plan's steps in order and stops at the first failure
// that is not expected.
func (e *Executor) Apply(p Plan) error {
	for _, s := range p.Steps {
		var err error
		switch s.Kind {
		case WriteFile:
			err = atomicfile.Write(s.Path, []byte(s.Content), s.Mode)
		case RemoveFile:
			if err = os.Remove(s.Path); errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		case Run:
			_, err = e.Output(s.Argv, "")
		case EditCrontab:
			err = e.editCrontab(s.CronLine)
		}
		if err != nil && !s.MayFail {
			return err
		}
	}
	return nil
}

var noCrontab = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)no crontab`) })

func (e *Executor) readCrontab() (string, error) {
	out, err := e.Output([]string{"crontab", "-l"}, "")
	if err != nil && noCrontab().MatchString(err.Error()) {
		return "", nil
	}
	return out, err
}

func (e *Executor) editCrontab(line string) error {
	cur, err := e.readCrontab()
	if err != nil {
		return err
	}
	next := EditCrontabText(cur, line)
	if next == cur {
		return nil
	}
	_, err = e.Output([]string{"crontab", "-"}, next)
	return err
}

// SystemdUsable reports whether `systemctl --user` reaches a user manager.
func (e *Executor) SystemdUsable() bool {
	_, err := e.Output([]string{"systemctl", "--user", "show-environment"}, "")
	return err == nil
}

// Status is what is installed for one backend.
type Status struct {
	Backend   Backend `json:"backend"`
	Installed bool    `json:"installed"`
	Where     string  `json:"where,omitempty"`  // the file or crontab line or task
	When      string  `json:"when,omitempty"`   // HH:MM of the daily run, when readable
	Detail    string  `json:"detail,omitempty"` // what the scheduler itself says
}

var (
	onCalendar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^OnCalendar=\*-\*-\* (\d{2}):(\d{2})`) })
	plistTime  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<key>Hour</key>\s*<integer>(\d+)</integer>\s*<key>Minute</key>\s*<integer>(\d+)</integer>`)
	})
)

// entryLimit bounds the read of an installed entry: ours are a few hundred
// bytes, and a file much larger is not one we wrote.
const entryLimit = 64 << 10

// readEntry reads an installed timer or agent file under the same rules
// its install wrote it with (atomicfile over safefs): a FIFO or device put
// in its place is refused without blocking `doctor` or `status`, and a
// huge file is not read whole.
func readEntry(path string) ([]byte, error) { return safefs.ReadFile(path, entryLimit) }

// Status reports what the backend of t has installed. It only reads.
func (e *Executor) Status(t Target) Status {
	st := Status{Backend: t.Backend}
	switch t.Backend {
	case Systemd:
		_, timer := systemdPaths(t)
		if data, err := readEntry(timer); err == nil {
			st.Installed, st.Where = true, timer
			if m := onCalendar().FindStringSubmatch(string(data)); m != nil {
				st.When = m[1] + ":" + m[2]
			}
			out, err := e.Output([]string{"systemctl", "--user", "is-enabled", Name + ".timer"}, "")
			st.Detail = "is-enabled: " + strings.TrimSpace(out)
			if err != nil && strings.TrimSpace(out) == "" {
				st.Detail = err.Error()
			}
		}
	case Cron:
		cur, err := e.readCrontab()
		if err != nil {
			st.Detail = err.Error()
			break
		}
		for _, l := range strings.Split(cur, "\n") {
			if strings.HasSuffix(strings.TrimSpace(l), cronMarker) {
				st.Installed, st.Where = true, "crontab: "+l
				var m, h int
				if _, err := fmt.Sscanf(l, "%d %d", &m, &h); err == nil {
					st.When = fmt.Sprintf("%02d:%02d", h, m)
				}
			}
		}
	case Launchd:
		plist := launchdPath(t)
		if data, err := readEntry(plist); err == nil {
			st.Installed, st.Where = true, plist
			if m := plistTime().FindStringSubmatch(string(data)); m != nil {
				h, _ := strconv.Atoi(m[1])
				mi, _ := strconv.Atoi(m[2])
				st.When = fmt.Sprintf("%02d:%02d", h, mi)
			}
		}
	case Schtasks:
		out, err := e.Output([]string{"schtasks", "/Query", "/TN", Name, "/FO", "LIST"}, "")
		if err == nil {
			st.Installed, st.Where, st.Detail = true, "Task Scheduler: "+Name, strings.TrimSpace(out)
		}
	}
	return st
}

// EntryTime reads the time of day an installed entry runs from its file
// (a systemd timer, a launchd agent), without running any command. It
// reports false when no such file is there: nothing installed, or a
// crontab line or a Task Scheduler task, which only their commands show
// (`memhook schedule status`).
func EntryTime(t Target) (when, where string, ok bool) {
	if _, timer := systemdPaths(t); timer != "" {
		if data, err := readEntry(timer); err == nil {
			if m := onCalendar().FindStringSubmatch(string(data)); m != nil {
				return m[1] + ":" + m[2], timer, true
			}
		}
	}
	if plist := launchdPath(t); plist != "" {
		if data, err := readEntry(plist); err == nil {
			if m := plistTime().FindStringSubmatch(string(data)); m != nil {
				h, _ := strconv.Atoi(m[1])
				mi, _ := strconv.Atoi(m[2])
				return fmt.Sprintf("%02d:%02d", h, mi), plist, true
			}
		}
	}
	return "", "", false
}
