package lazyregexp

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestCompilesOnFirstUseOutsideTests(t *testing.T) {
	// What New returns in memhook: nothing compiled yet.
	r := &Regexp{expr: `^(\d{4})-(\d{2})$`}
	if r.rx != nil {
		t.Fatal("compiled before use")
	}
	if !r.MatchString("2026-11") || r.MatchString("2026-1") {
		t.Fatal("MatchString disagrees with the pattern")
	}
	if r.rx == nil {
		t.Fatal("not compiled after use")
	}
	first := r.Re()
	if r.Re() != first {
		t.Fatal("compiled twice")
	}
}

func TestCompilesAtOnceInTests(t *testing.T) {
	if !inTest {
		t.Fatalf("a test binary (%s) is not recognised as one", os.Args[0])
	}
	if New(`a+`).rx == nil {
		t.Fatal("New in a test binary left the pattern uncompiled")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern did not panic at New in a test binary")
		}
	}()
	New(`(`)
}

func TestMethodsMatchRegexp(t *testing.T) {
	const expr = `(\w+)=(\d+)`
	const s = "a=1 b=22 c=x"
	r := New(expr)
	re := r.Re()
	checks := []struct {
		name      string
		got, want any
	}{
		{"FindString", r.FindString(s), re.FindString(s)},
		{"FindStringIndex", r.FindStringIndex(s), re.FindStringIndex(s)},
		{"FindStringSubmatch", r.FindStringSubmatch(s), re.FindStringSubmatch(s)},
		{"FindAllStringSubmatch", r.FindAllStringSubmatch(s, -1), re.FindAllStringSubmatch(s, -1)},
		{"ReplaceAllString", r.ReplaceAllString(s, "$2"), "1 22 c=x"},
		{"ReplaceAllStringFunc", r.ReplaceAllStringFunc(s, strings.ToUpper), "A=1 B=22 c=x"},
		{"Split", r.Split(s, -1), re.Split(s, -1)},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}
