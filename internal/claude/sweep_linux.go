//go:build linux

package claude

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux a call leaves nothing behind, whatever its processes do: a
// child that starts a new session (setsid) leaves the process group the
// deadline kills, so the runner also finds every process of the call by
// the marker in its environment ([RunEnv]) and, because this process is a
// child subreaper, every process orphaned under it (a daemon that also
// cleared its environment is reparented here, not to init). All of them
// are killed and the ones reparented here are reaped, at the deadline and
// when the call ends.

var subreaper sync.Once

// live holds the markers and child pids of the calls in flight, so that
// one call's sweep spares another's processes.
var live sync.Map // marker -> child pid (0 until started)

type sweep struct {
	marker string
	self   int
	before map[int]bool // this process's children when the call began
}

func startSweep(marker string) *sweep {
	subreaper.Do(func() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
	s := &sweep{marker: marker, self: os.Getpid(), before: map[int]bool{}}
	for _, p := range readProcs() {
		if p.ppid == s.self {
			s.before[p.pid] = true
		}
	}
	live.Store(marker, 0)
	return s
}

func (s *sweep) started(child int) { live.Store(s.marker, child) }

// finish kills every process left from the call and reaps those that
// became this process's children (the group the deadline killed leaves
// them as zombies here); it repeats while a sweep still finds some (a
// process may fork between two reads of /proc).
func (s *sweep) finish(child int) {
	defer live.Delete(s.marker)
	for round := 0; round < 10; round++ {
		left := s.find(child)
		if len(left) == 0 {
			return
		}
		for _, p := range left {
			if !p.zombie {
				syscall.Kill(p.pid, syscall.SIGKILL)
			}
		}
		for _, p := range left {
			if p.ppid == s.self {
				reap(p.pid)
			}
		}
	}
}

// reap waits for a killed child of this process, briefly: SIGKILL ends it
// at once unless it is stuck in the kernel.
func reap(pid int) {
	deadline := time.Now().Add(time.Second)
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		if got == pid || err != nil || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type proc struct {
	pid, ppid, pgid int
	zombie          bool // dead, waiting for its parent to reap it
}

// find lists the processes of the call: its process group, those whose
// environment carries its marker, the orphans reparented here since the
// call began that no other call in flight owns, and every descendant of
// those.
func (s *sweep) find(child int) []proc {
	procs := readProcs()
	others := map[int]bool{}
	var otherMarkers []string
	live.Range(func(k, v any) bool {
		if k.(string) != s.marker {
			otherMarkers = append(otherMarkers, k.(string))
			if pid := v.(int); pid > 0 {
				others[pid] = true
			}
		}
		return true
	})
	byParent := map[int][]proc{}
	for _, p := range procs {
		byParent[p.ppid] = append(byParent[p.ppid], p)
	}
	in := map[int]bool{}
	var out []proc
	var add func(p proc)
	add = func(p proc) {
		if in[p.pid] || p.pid == s.self {
			return
		}
		in[p.pid] = true
		out = append(out, p)
		for _, c := range byParent[p.pid] {
			add(c)
		}
	}
	for _, p := range procs {
		if p.zombie && (p.ppid != s.self || p.pgid != child) {
			// Dead, and another's to reap: only the call's own group is
			// reaped here (a zombie's environment cannot be read).
			continue
		}
		if p.pid == s.self || (child > 0 && p.pgid == child) {
			if p.pid != s.self {
				add(p)
			}
			continue
		}
		env := readEnviron(p.pid)
		switch {
		case bytes.Contains(env, []byte(RunEnv+"="+s.marker+"\x00")):
			add(p)
		case p.ppid == s.self && !s.before[p.pid] && !others[p.pid] && !carriesAny(env, otherMarkers):
			add(p)
		}
	}
	return out
}

func carriesAny(env []byte, markers []string) bool {
	for _, m := range markers {
		if bytes.Contains(env, []byte(RunEnv+"="+m+"\x00")) {
			return true
		}
	}
	return false
}

// readProcs reads pid, parent and process group of every process.
func readProcs() []proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name in parentheses may hold spaces: fields start
		// after its last ')'.
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(data[i+1:]))
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		out = append(out, proc{pid: pid, ppid: ppid, pgid: pgid, zombie: f[0] == "Z"})
	}
	return out
}

// readEnviron is a process's environment, NUL-terminated entries; empty
// when it is not readable (another user's process, or gone).
func readEnviron(pid int) []byte {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return nil
	}
	return append(data, 0)
}
