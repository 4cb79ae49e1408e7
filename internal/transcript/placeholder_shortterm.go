// Package transcript reads Claude Code transcripts incrementally.
//
// This file is a stand-in written on branch shortterm against the agreed API
// until branch transcript lands; it is removed at that merge.
package transcript

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Tool is one tool call mentioned by an assistant message.
type Tool struct{ Name, Target string }

// Item is one dialogue message.
type Item struct {
	Role, Text string
	Tools      []Tool
	Time       time.Time
	ID         string
}

// Read returns the dialogue items of the complete lines from byte offset from.
func Read(path string, from, maxBytes int64) ([]Item, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, from, err
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, from, err
	}
	r := bufio.NewReaderSize(f, 64<<10)
	next := from
	var items []Item
	for maxBytes <= 0 || next-from < maxBytes {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			break // an incomplete last line is read next time
		}
		if err != nil {
			return items, next, err
		}
		next += int64(len(line))
		if it, ok := parse(line); ok {
			items = append(items, it)
		}
	}
	return items, next, nil
}

func parse(line []byte) (Item, bool) {
	v := gjson.ParseBytes(line)
	typ := v.Get("type").String()
	if (typ != "user" && typ != "assistant") || v.Get("isSidechain").Bool() || v.Get("isMeta").Bool() || v.Get("isCompactSummary").Bool() {
		return Item{}, false
	}
	ts, _ := time.Parse(time.RFC3339Nano, v.Get("timestamp").String())
	it := Item{Role: typ, Time: ts, ID: v.Get("message.id").String()}
	c := v.Get("message.content")
	if c.Type == gjson.String {
		it.Text = c.String()
	} else {
		var parts []string
		for _, b := range c.Array() {
			switch b.Get("type").String() {
			case "text":
				parts = append(parts, b.Get("text").String())
			case "tool_use":
				in := b.Get("input")
				target := in.Get("file_path").String()
				if target == "" {
					target = in.Get("command").String()
				}
				it.Tools = append(it.Tools, Tool{Name: b.Get("name").String(), Target: target})
			case "tool_result":
				return Item{}, false
			}
		}
		it.Text = strings.Join(parts, "\n")
	}
	if it.Text == "" && len(it.Tools) == 0 {
		return Item{}, false
	}
	return it, true
}

// Chars is the dialogue size of items: text plus one short line per tool call.
func Chars(items []Item) int {
	n := 0
	for _, it := range items {
		n += len([]rune(it.Text))
		for _, t := range it.Tools {
			n += len(t.Name) + len(t.Target) + 1
		}
	}
	return n
}
