package serve

import (
	"reflect"
	"testing"
)

func TestSkillsDirsOf(t *testing.T) {
	got := SkillsDirsOf([]string{"/p/.claude/skills", "/plugin/skills"}, "")
	want := []SkillsDir{{Dir: "/p/.claude/skills", Source: "project"}, {Dir: "/plugin/skills", Source: "plugin"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
	if got := SkillsDirsOf([]string{"/p/.claude/skills"}, "/mine"); !reflect.DeepEqual(got, []SkillsDir{{Dir: "/mine", Source: "folder"}}) {
		t.Fatalf("override: %+v", got)
	}
}
