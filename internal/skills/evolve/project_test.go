package evolve

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cerebro-mem/cerebro/internal/skills/runrec"
	"github.com/cerebro-mem/cerebro/internal/skills/skill"
	"github.com/cerebro-mem/cerebro/internal/testfile"
)

func testProject(t *testing.T) Project {
	t.Helper()
	state := t.TempDir()
	return Project{Root: t.TempDir(), PluginRoot: t.TempDir(), Journal: runrec.Journal{Dir: filepath.Join(state, "runs")},
		Reference: Reference{Dir: filepath.Join(state, "instruction")}}
}

// The project's own skills folder leads the plugin's: a skill in both is
// the project's, the instruction files list the plugin's first.
func TestProjectFindsTheEvolvingCopyFirst(t *testing.T) {
	p := testProject(t)
	own := filepath.Join(p.Root, ".claude", "skills", InstructionSkill, "SKILL.md")
	shipped := filepath.Join(p.PluginRoot, "skills", InstructionSkill, "SKILL.md")
	testfile.Write(t, shipped, "---\nname: use-memory\n---\nshipped\n")
	if got := p.SkillFile(InstructionSkill); got != shipped {
		t.Fatalf("only the plugin's: %q", got)
	}
	testfile.Write(t, own, "---\nname: use-memory\n---\nown\n")
	if got := p.SkillFile(InstructionSkill); got != own {
		t.Errorf("both: %q, want the project's", got)
	}
	if got := p.InstructionFiles(); len(got) != 2 || got[0] != shipped || got[1] != own {
		t.Errorf("instruction files %v", got)
	}
	if got := p.SkillFile("relearn"); got != "" {
		t.Errorf("a skill nobody has: %q", got)
	}
}

// A reset restores the edited instruction from the reference taken of
// the shipped one; without any instruction it says so by ErrNoInstruction.
func TestResetInstructionRestoresTheReference(t *testing.T) {
	p := testProject(t)
	if _, err := p.ResetInstruction(time.Now()); !errors.Is(err, ErrNoInstruction) {
		t.Fatalf("no instruction: %v", err)
	}
	own := filepath.Join(p.Root, ".claude", "skills", InstructionSkill, "SKILL.md")
	testfile.Write(t, filepath.Join(p.PluginRoot, "skills", InstructionSkill, "SKILL.md"), "---\nname: use-memory\n---\nshipped\n")
	testfile.Write(t, own, "---\nname: use-memory\n---\nDEGRADED\n")
	done, err := p.ResetInstruction(time.Now())
	if err != nil || len(done) == 0 {
		t.Fatalf("reset: %+v %v", done, err)
	}
	if got := testfile.Read(t, own); !strings.Contains(got, "shipped") {
		t.Errorf("after reset: %q", got)
	}
	var out bytes.Buffer
	WriteRestored(&out, done)
	if !strings.Contains(out.String(), own) {
		t.Errorf("said %q", out.String())
	}
}

// Setting the reference asks first: anything but yes leaves it as it was.
func TestSetReferenceAskingNeedsYes(t *testing.T) {
	p := testProject(t)
	testfile.Write(t, filepath.Join(p.Root, ".claude", "skills", InstructionSkill, "SKILL.md"), "---\nname: use-memory\n---\nmine\n")
	var out bytes.Buffer
	if err := p.SetReferenceAsking(strings.NewReader("no\n"), &out, "", time.Now()); err == nil || !strings.Contains(err.Error(), "not confirmed") {
		t.Fatalf("no: %v", err)
	}
	if _, _, err := p.Reference.Load(); !errors.Is(err, ErrNoReference) {
		t.Fatalf("a reference after no: %v", err)
	}
	if err := p.SetReferenceAsking(strings.NewReader("yes\n"), &out, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, files, err := p.Reference.Load(); err != nil || !strings.Contains(string(files[InstructionName]), "mine") {
		t.Errorf("reference %v %v", files, err)
	}
}

// A candidate of a skill only the plugin ships lands beside an evolving
// copy made in the project, committed with it; judging a pair that does
// not wait is ErrNoPair.
func TestProposeMakesTheEvolvingCopy(t *testing.T) {
	p := testProject(t)
	testfile.Write(t, filepath.Join(p.PluginRoot, "skills", "relearn", "SKILL.md"), "---\nname: relearn\n---\nv1\n")
	ref, err := skill.Find(p.Dirs(), "relearn")
	if err != nil {
		t.Fatal(err)
	}
	a, err := Propose(ref, p.Root, "c1", []byte("---\nname: relearn\n---\nv2\n"), time.Now())
	if err != nil || !a.EvolvingCopy || a.Commit == "" || !strings.HasPrefix(a.Candidate.File, filepath.Join(p.Root, ".claude", "skills")) {
		t.Fatalf("propose: %+v %v", a, err)
	}
	if got := p.SkillFile("relearn"); got != a.File {
		t.Errorf("skill file %q, want the evolving copy %q", got, a.File)
	}
	if err := p.JudgePair("p-nope", "1", time.Now()); !errors.Is(err, ErrNoPair) {
		t.Errorf("unknown pair: %v", err)
	}
}
