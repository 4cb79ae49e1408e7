package blackbox

import (
	"encoding/json"
	"strings"
	"testing"
)

// sample is a well-formed and a badly formed value for each kind.
var sample = map[string][2]string{
	KindBool:     {`true`, `"yes"`},
	KindInt:      {`3`, `0`},
	KindName:     {`"friends"`, `"a;b"`},
	KindString:   {`"Dima"`, `""`},
	KindValue:    {`42`, `{}`},
	KindCalendar: {`"2026-05"`, `"May"`},
	KindPlace:    {`"Madrid"`, `""`},
	KindScope:    {`[{"geo":"Madrid"}]`, `[{"geo":"Madrid"},{"calendar":"soon"}]`},
}

func parse(t *testing.T, verb string, extra map[string]string) map[string]Fate {
	t.Helper()
	r := Raw{"text": json.RawMessage(`"what is Dima's phone"`)}
	for k, v := range extra {
		r[k] = json.RawMessage(v)
	}
	var fates map[string]Fate
	var err error
	if verb == VerbRecall {
		_, fates, err = ParseRecall(r, Caps{})
	} else {
		_, fates, err = ParseRemember(r)
	}
	if err != nil {
		t.Fatal(err)
	}
	return fates
}

// TestContractMatchesParsers: every parameter the contract names is one the
// parser knows (accepted when well-formed, bad_form when not), every choice
// it lists is accepted, and a value outside them is refused.
func TestContractMatchesParsers(t *testing.T) {
	for _, verb := range []string{VerbRecall, VerbRemember} {
		for _, p := range Params(verb) {
			extra := map[string]string{}
			if verb == VerbRemember && p.Name != "table" {
				extra["table"], extra["key"] = `"friends"`, `"Dima"`
			}
			if p.Kind == KindChoice {
				for _, c := range p.Choices {
					extra[p.Name] = `"` + c.Value + `"`
					if f := parse(t, verb, extra)[p.Name]; f.Fate != FateAccepted {
						t.Errorf("%s %s=%s: fate %+v, want accepted", verb, p.Name, c.Value, f)
					}
				}
				extra[p.Name] = `"nonsense"`
				if f := parse(t, verb, extra)[p.Name]; f.Fate != FateBadForm || f.Reason != p.ChoiceError() {
					t.Errorf("%s %s=nonsense: fate %+v, want bad_form %q", verb, p.Name, f, p.ChoiceError())
				}
				continue
			}
			s, known := sample[p.Kind]
			if !known {
				t.Fatalf("%s %s: kind %q has no sample", verb, p.Name, p.Kind)
			}
			if p.Name == "table" && verb == VerbRemember {
				extra["key"] = `"Dima"`
			}
			extra[p.Name] = s[0]
			if f := parse(t, verb, extra)[p.Name]; f.Fate != FateAccepted {
				t.Errorf("%s %s=%s: fate %+v, want accepted", verb, p.Name, s[0], f)
			}
			extra[p.Name] = s[1]
			if f := parse(t, verb, extra)[p.Name]; f.Fate != FateBadForm {
				t.Errorf("%s %s=%s: fate %+v, want bad_form", verb, p.Name, s[1], f)
			}
		}
	}
}

// TestFlagUsagesFromContract: the CLI's string flags are the contract's
// parameters with its hints.
func TestFlagUsagesFromContract(t *testing.T) {
	u := FlagUsages(VerbRecall)
	if u["depth"] == "" || u["geo"] != "scope: a place" {
		t.Errorf("recall flags: %v", u)
	}
	if _, ok := u["chain"]; ok {
		t.Error("chain is a bool flag, not a string one")
	}
	if len(FlagUsages(VerbRemember)) != 10 {
		t.Errorf("remember flags: %v", FlagUsages(VerbRemember))
	}
}

// TestDoorsAreNamed: each door the contract names gets not_supported with
// its reason and what would open it, on both verbs; an unknown key stays
// the generic unknown parameter.
func TestDoorsAreNamed(t *testing.T) {
	names := map[string]bool{}
	for _, d := range Doors() {
		names[d.Name] = true
	}
	for _, want := range []string{"photo", "video", "voice", "document"} {
		if !names[want] {
			t.Errorf("door %s missing from the contract", want)
		}
	}
	for _, verb := range []string{VerbRecall, VerbRemember} {
		for _, d := range Doors() {
			f := parse(t, verb, map[string]string{d.Name: `"file.bin"`})[d.Name]
			if f.Fate != FateNotSupported || !strings.Contains(f.Note, d.Reason) || !strings.Contains(f.Note, d.Opens) {
				t.Errorf("%s %s: %+v", verb, d.Name, f)
			}
		}
		if f := parse(t, verb, map[string]string{"colour": `"red"`})["colour"]; f.Note != "unknown parameter; it changed nothing" {
			t.Errorf("%s colour: %+v", verb, f)
		}
	}
}

// TestScopeListNamesRecord: a bad record is named by its number, counted
// from 1; an empty record is not a scope.
func TestScopeListNamesRecord(t *testing.T) {
	f := parse(t, VerbRecall, map[string]string{"scope": `[{"geo":"Madrid"},{"calendar":"soon"}]`})["scope"]
	if f.Fate != FateBadForm || !strings.HasPrefix(f.Reason, "scope record 2: ") {
		t.Errorf("fate %+v, want bad_form naming record 2", f)
	}
	scs, err := ParseScopes(json.RawMessage(`[{"geo":""},{"geo":"Madrid","calendar":"2026"},{}]`))
	if err != nil || len(scs) != 1 || scs[0] != (Scope{Geo: "Madrid", Calendar: "2026"}) {
		t.Errorf("scopes %v, %v", scs, err)
	}
}

// TestFitAny: a record answers when it fits any of the caller's records.
func TestFitAny(t *testing.T) {
	req := RecallRequest{Scopes: []Scope{{Geo: "Madrid"}, {Geo: "Barcelona"}}}
	for rec, want := range map[Scope]string{{Geo: "Barcelona"}: "match", {Geo: "Spain"}: "other", {}: "unknown"} {
		if got := fitAny(rec, req.scopes()); got != want {
			t.Errorf("fit %v: %s, want %s", rec, got, want)
		}
	}
	if got := fitAny(Scope{Geo: "Madrid"}, RecallRequest{}.scopes()); got != "match" {
		t.Errorf("no scope given: %s, want match", got)
	}
	if w := req.wanted(); w.Geo != "Madrid" || w.Calendar != "" {
		t.Errorf("wanted %v", w)
	}
}
