package mcp

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/cerebro-mem/cerebro/internal/runlog"
)

// RunLog writes the server's notes to the run log in logDir as event
// "mcp"; a call's entry names the tool and carries its wall time.
func RunLog(logDir string, now func() time.Time) func(Note) {
	log := runlog.Open(logDir, 1<<20)
	return func(n Note) {
		msg := n.Message
		if n.Tool != "" {
			msg = strings.TrimSuffix(n.Tool+": "+msg, ": ")
		}
		log.Write(runlog.Entry{Time: now(), Event: "mcp", Level: n.Level, MS: n.MS, Message: msg})
	}
}

// LineWriter sends what is written to it to log, a line a warning: what
// the tools' composition would print (a warning of a run record, a shadow
// run's failure) must not reach stdout, which carries the protocol only.
func LineWriter(log func(Note)) io.Writer { return &logLines{log: log} }

type logLines struct {
	mu  sync.Mutex
	log func(Note)
	buf []byte
}

func (w *logLines) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		if line := bytes.TrimSpace(w.buf[:i]); len(line) > 0 {
			w.log(Note{Level: "warn", Message: string(line)})
		}
		w.buf = w.buf[i+1:]
	}
	return len(p), nil
}
