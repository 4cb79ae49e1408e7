package distill

import (
	"testing"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript/transcripttest"
)

// newSession starts a transcript (transcripttest): the distiller is
// tested on what the transcript reader gives it in use.
func newSession(t *testing.T) *transcripttest.Session { return transcripttest.New(t) }

var (
	ok       = transcripttest.OK
	failed   = transcripttest.Failed
	rejected = transcripttest.Rejected
)

// segmentOf reads the transcript back as a flush does.
func segmentOf(s *transcripttest.Session) Segment {
	s.TB().Helper()
	l, _, err := (transcript.Reader{}).ReadLog(s.File(), 0, 0)
	if err != nil {
		s.TB().Fatal(err)
	}
	return Segment{Items: l.Items, Subagents: l.Side, Cwd: l.Cwd, Title: l.Title}
}

func bodyOf(s *transcripttest.Session) string {
	s.TB().Helper()
	return Extractive(segmentOf(s))
}
