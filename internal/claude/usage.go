package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// This file reads what a call cost. `claude -p --output-format json`
// prints one result object carrying the answer and the provider's usage;
// a caller that must account for every token (the night pass, whose
// budget forbids the next call when the last one's spend is unknown)
// uses [Runner.RunJSON] instead of [Runner.Run]. The other callers keep
// the text output.

// Usage is the token counts the provider reported for one call.
type Usage struct {
	InputTokens         int `json:"input_tokens"`
	OutputTokens        int `json:"output_tokens"`
	CacheCreationTokens int `json:"cache_creation_input_tokens,omitempty"`
	CacheReadTokens     int `json:"cache_read_input_tokens,omitempty"`
}

// Input is every input token the call was billed for: fresh, written to
// the prompt cache and read from it.
func (u Usage) Input() int { return u.InputTokens + u.CacheCreationTokens + u.CacheReadTokens }

// ErrBadResult means stdout was not claude's JSON result: a stream cut
// short, or something else printed in its place. The call's answer and
// cost are both unknown.
var ErrBadResult = errors.New("the output is not claude's JSON result")

// ErrNoUsage means the result carried no complete numeric usage: input
// and output token counts, each a whole number.
var ErrNoUsage = errors.New("the result reports no complete usage")

// ProviderError is a result claude printed for a call that failed on its
// side (is_error, or a subtype other than success): the provider refused,
// ran out of turns or lost the connection.
type ProviderError struct {
	Subtype string
	Message string
}

func (e *ProviderError) Error() string {
	msg := "the provider reported an error"
	if e.Subtype != "" {
		msg += " (" + e.Subtype + ")"
	}
	if e.Message != "" {
		msg += ": " + clip(oneLine(e.Message), maxStderrShown)
	}
	return msg
}

// Answer is what a JSON result says.
type Answer struct {
	Answer string // the result's text
	Usage  Usage
	// UsageErr is why Usage cannot be trusted (wrapping [ErrNoUsage]); nil
	// when it was reported whole. The answer is usable either way.
	UsageErr error
}

// JSONResult is a finished call read from its JSON result.
type JSONResult struct {
	Result
	Answer
}

// RunJSON runs the call like [Runner.Run] with `--output-format json` and
// reads the result object. A failed start, a non-zero exit, a timeout, an
// output cut at the limit or not a result ([ErrBadResult]) and a result
// that reports an error ([*ProviderError]) are errors; a result without
// complete usage is not, and says so in UsageErr.
func (r Runner) RunJSON(ctx context.Context, c Call) (JSONResult, error) {
	// The later --output-format wins, so Run's text default is replaced.
	c.Args = append(append([]string(nil), c.Args...), "--output-format", "json")
	res, err := r.Run(ctx, c)
	out := JSONResult{Result: res}
	if err != nil {
		return out, err
	}
	if res.Truncated {
		return out, fmt.Errorf("%w: cut at %d bytes", ErrBadResult, len(res.Output))
	}
	out.Answer, err = ParseResult([]byte(res.Output))
	return out, err
}

// ParseResult reads claude's JSON result: its answer, its usage and why
// the usage is not complete. The error is for output that is not a result
// at all ([ErrBadResult]), or a result reporting a failure
// ([*ProviderError]).
func ParseResult(out []byte) (Answer, error) {
	var v struct {
		Type    string                     `json:"type"`
		Subtype string                     `json:"subtype"`
		IsError bool                       `json:"is_error"`
		Result  *string                    `json:"result"`
		Usage   map[string]json.RawMessage `json:"usage"`
	}
	t := bytes.TrimSpace(out)
	if len(t) == 0 {
		return Answer{}, fmt.Errorf("%w: the output is empty", ErrBadResult)
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	if err := dec.Decode(&v); err != nil {
		return Answer{}, fmt.Errorf("%w: %v", ErrBadResult, err)
	}
	if dec.More() {
		return Answer{}, fmt.Errorf("%w: text follows the result object", ErrBadResult)
	}
	if v.Type != "result" {
		return Answer{}, fmt.Errorf("%w: an object of type %q", ErrBadResult, v.Type)
	}
	if v.IsError || (v.Subtype != "" && v.Subtype != "success") {
		msg := ""
		if v.Result != nil {
			msg = *v.Result
		}
		return Answer{}, &ProviderError{Subtype: v.Subtype, Message: msg}
	}
	if v.Result == nil {
		return Answer{}, fmt.Errorf("%w: the result has no text", ErrBadResult)
	}
	u, uerr := readUsage(v.Usage)
	return Answer{Answer: *v.Result, Usage: u, UsageErr: uerr}, nil
}

// readUsage takes the counts a budget needs: input and output tokens are
// required, the cache counts optional; each present count must be a whole,
// non-negative number.
func readUsage(m map[string]json.RawMessage) (Usage, error) {
	if m == nil {
		return Usage{}, fmt.Errorf("%w: no usage object", ErrNoUsage)
	}
	var u Usage
	var missing []string
	for _, f := range []struct {
		key      string
		dst      *int
		required bool
	}{
		{"input_tokens", &u.InputTokens, true},
		{"output_tokens", &u.OutputTokens, true},
		{"cache_creation_input_tokens", &u.CacheCreationTokens, false},
		{"cache_read_input_tokens", &u.CacheReadTokens, false},
	} {
		raw, ok := m[f.key]
		if !ok || string(raw) == "null" {
			if f.required {
				missing = append(missing, f.key)
			}
			continue
		}
		var n json.Number
		// json.Number also takes a quoted string; a count must be a number.
		if raw[0] == '"' || json.Unmarshal(raw, &n) != nil {
			missing = append(missing, f.key+" (not a number)")
			continue
		}
		i, err := n.Int64()
		if err != nil || i < 0 || i > 1<<40 {
			missing = append(missing, f.key+" (not a whole count)")
			continue
		}
		*f.dst = int(i)
	}
	if len(missing) > 0 {
		return Usage{}, fmt.Errorf("%w: %s", ErrNoUsage, strings.Join(missing, ", "))
	}
	return u, nil
}
