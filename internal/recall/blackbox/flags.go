package blackbox

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// FlagProblem is a value given as one of a verb's own flags (--depth,
// --limit, --claim, …) that the request contract refuses: on the command
// line that is the person's typo, an error before anything is opened,
// where the same value sent as JSON keeps its fate (bad_form) in the
// answer object for a calling model to read.
type FlagProblem struct {
	Param  Param  // the contract's parameter (Choices for a choice)
	Value  string // the value given, unquoted
	Raw    string // the value as JSON
	Reason string // the fate's reason
}

// CheckFlags judges the values given as flags (by name) against the
// contract of verb, and returns the refused ones in the contract's order.
// A fate that only follows from another value's (a --key without a usable
// table because --kind is bad) is left out when a cause is named.
func CheckFlags(verb string, given map[string]any) []FlagProblem {
	if len(given) == 0 {
		return nil
	}
	probe := Raw{"text": json.RawMessage(`"flag check"`)}
	var names []string
	for k, v := range given {
		b, _ := json.Marshal(v)
		probe[k] = b
		names = append(names, k)
	}
	var fates map[string]Fate
	var err error
	if verb == VerbRecall {
		_, fates, err = ParseRecall(probe, Caps{})
	} else {
		_, fates, err = ParseRemember(probe)
	}
	if err != nil {
		return nil // the whole request is judged again, with its text, by the run
	}
	order := map[string]int{}
	for i, p := range Params(verb) {
		order[p.Name] = i
	}
	slices.SortFunc(names, func(a, b string) int { return order[a] - order[b] })
	consequence := func(f Fate) bool {
		return strings.Contains(f.Reason, "bad_form") || strings.Contains(f.Reason, "needs a usable")
	}
	causes := 0
	for _, name := range names {
		if f := fates[name]; f.Fate == FateBadForm && !consequence(f) {
			causes++
		}
	}
	var out []FlagProblem
	for _, name := range names {
		f := fates[name]
		if f.Fate != FateBadForm || (causes > 0 && consequence(f)) {
			continue
		}
		p, _ := Lookup(verb, name)
		raw := string(probe[name])
		out = append(out, FlagProblem{Param: p, Value: strings.Trim(raw, `"`), Raw: raw, Reason: f.Reason})
	}
	return out
}

// AssembleRequest makes one request from what a command line gives: the
// JSON request (nil for none), then the text words, then the flags that
// were set, then params (KEY=VALUE, VALUE read as JSON when it parses),
// later ones winning.
func AssembleRequest(req Raw, words []string, flags map[string]any, params []string) (Raw, error) {
	if req == nil {
		req = Raw{}
	}
	set := func(k string, v any) {
		b, _ := json.Marshal(v)
		req[k] = b
	}
	if len(words) > 0 {
		set("text", strings.Join(words, " "))
	}
	for k, v := range flags {
		set(k, v)
	}
	for _, kv := range params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--param %q: want KEY=VALUE", kv)
		}
		if json.Valid([]byte(v)) {
			req[k] = json.RawMessage(v)
		} else {
			set(k, v)
		}
	}
	return req, nil
}
