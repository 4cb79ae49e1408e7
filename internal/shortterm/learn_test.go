package shortterm

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cerebro-mem/cerebro/internal/shortterm/lessons"
)

// toolLines appends a Bash call and its result in the line format of
// Claude Code 2.1 transcripts.
func (f *fixture) toolLines(id, command, result string, failed bool) {
	f.msgCounter++
	use := fmt.Sprintf(`{"type":"assistant","timestamp":"2026-11-30T09:0%d:00Z","message":{"id":"m%d","role":"assistant","content":[{"type":"tool_use","id":%q,"name":"Bash","input":{"command":%q,"description":"build"}}]}}`,
		f.msgCounter%10, f.msgCounter, id, command)
	tur := fmt.Sprintf(`{"stdout":%q,"stderr":"","interrupted":false,"isImage":false}`, result)
	if failed {
		tur = fmt.Sprintf("%q", "Error: "+result)
	}
	res := fmt.Sprintf(`{"type":"user","timestamp":"2026-11-30T09:0%d:01Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":%q,"is_error":%v}]},"toolUseResult":%s}`,
		f.msgCounter%10, id, result, failed, tur)
	fh, err := os.OpenFile(f.tr, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		f.t.Fatal(err)
	}
	fh.WriteString(use + "\n" + res + "\n")
	fh.Close()
}

func TestFlushWritesTheLessonItsToolsTaught(t *testing.T) {
	f := newFixture(t)
	f.turn("build the assets", "building", false)
	f.toolLines("toolu_1", "node assets/build.js", "Exit code 1\nError: Cannot find module './lib'", true)
	f.toolLines("toolu_2", "cd assets && node build.js", "built 3 files", false)
	f.turn("and the tests?", "ran them", false)
	f.turn("thanks", "done", false)
	f.turn("one more", "ok", false)
	res := f.flush(TriggerManual, true)
	if res.File == "" || res.LessonsErr != nil || res.Lessons != 1 {
		t.Fatalf("flush %+v", res)
	}
	file, err := lessons.Read(f.root)
	if err != nil {
		t.Fatal(err)
	}
	l, ok := file.Find("run build.js")
	if !ok || l.Kind != lessons.KindFix || l.Worked != "cd assets && node build.js" || l.Failed != "node assets/build.js" ||
		!strings.Contains(l.Error, "Cannot find module") || l.Source != ".claude/memory_short/daily/2026-11-30.md" || l.Date != "2026-11-30" {
		t.Fatalf("lesson %+v in %+v", l, file)
	}
	// The next call of the failing form, from another folder, meets it.
	if m, ok := file.Match(f.root, lessons.Call{Tool: "Bash", Command: "node ./assets/build.js --watch"}); !ok || m.Key != l.Key {
		t.Errorf("no match: %+v", m)
	}
}
