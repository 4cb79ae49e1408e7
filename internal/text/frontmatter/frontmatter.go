// Package frontmatter reads and edits the metadata block at the top of a
// Markdown memory file: YAML between "---" lines, the way Obsidian writes
// it, and the TOML ("+++") and JSON (";;;") blocks other tools leave in
// vaults a person points search at.
//
// [Parse] decodes it into a struct or map with errors that name the line in
// the file; [Split] gives the raw block and where the body starts, for tools
// that must edit one field without reformatting the rest ([SetField], YAML
// only).
//
// Detection and decoding go through github.com/adrg/frontmatter (the
// design card's parser), given this package's decoders: YAML through
// yaml.v3, so nested maps keep string keys, and errors shifted to the
// file's lines. Split is ours because the callers need positions (the
// body's line and byte offset, for snippets and edits), a bound on the
// block and an error for a block that never closes, which that library
// treats as no frontmatter.
package frontmatter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/BurntSushi/toml"
	adrg "github.com/adrg/frontmatter"
	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"gopkg.in/yaml.v3"
)

// MaxSize bounds the frontmatter block; anything larger is not metadata.
const MaxSize = 64 << 10

// ErrNone means the file has no frontmatter block.
var ErrNone = errors.New("no frontmatter")

// The formats a block may be in.
const (
	YAML = "yaml"
	TOML = "toml"
	JSON = "json"
)

// fences maps an opening line to its format and closing line; "..." also
// closes YAML, as the YAML spec allows.
var fences = map[string]struct{ format, end string }{
	"---":     {YAML, "---"},
	"---yaml": {YAML, "---"},
	"+++":     {TOML, "+++"},
	"---toml": {TOML, "---"},
	";;;":     {JSON, ";;;"},
	"---json": {JSON, "---"},
}

// Block is the position of a frontmatter block inside a file.
type Block struct {
	Format    string // YAML, TOML or JSON
	YAML      []byte // the lines between the fences, whatever the format
	StartLine int    // 1-based line of the first YAML line (2 for a file that opens with "---")
	BodyLine  int    // 1-based line where the body starts
	BodyStart int    // byte offset where the body starts
	open      int    // byte offset of the opening fence (after a byte order mark)
	fence     [2]string
}

// Split finds the frontmatter block. A file whose first line is "---" but
// never closes the block has broken frontmatter and gets an error.
func Split(data []byte) (Block, error) {
	// Offsets count from the file's first byte, a byte order mark included.
	bom := len(data)
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	bom -= len(data)
	first, rest, found := bytes.Cut(data, []byte("\n"))
	fence, ok := fences[string(bytes.TrimRight(first, " \t\r"))]
	if !ok || !found {
		return Block{}, ErrNone
	}
	off := len(first) + 1
	line := 2
	for len(rest) > 0 {
		l, next, more := bytes.Cut(rest, []byte("\n"))
		t := string(bytes.TrimRight(l, " \t\r"))
		if t == fence.end || fence.format == YAML && t == "..." {
			end := off + len(l)
			if more {
				end++
			}
			b := Block{Format: fence.format, YAML: data[len(first)+1 : off], StartLine: 2, BodyLine: line + 1, BodyStart: bom + end, open: bom,
				fence: [2]string{string(bytes.TrimRight(first, " \t\r")), t}}
			if len(b.YAML) > MaxSize {
				return Block{}, fmt.Errorf("frontmatter: larger than %d bytes", MaxSize)
			}
			return b, nil
		}
		off += len(l) + 1
		line++
		if !more {
			break
		}
		rest = next
	}
	return Block{}, fmt.Errorf("line 1: frontmatter opened with %s is never closed", bytes.TrimRight(first, " \t\r"))
}

var yamlLine = lazyregexp.New(`line (\d+)`)

// Parse decodes the frontmatter of data into v and returns the body. Errors
// carry the line number in the file ("line 4: ...").
func Parse(data []byte, v any) (body []byte, err error) {
	b, err := Split(data)
	if err != nil {
		return data, err
	}
	// The block Split found is what the library decodes: handing it the
	// whole file would let it skip leading blank lines or read past a
	// "..." that Split took as the end.
	block := data[b.open:b.BodyStart]
	if _, err := adrg.MustParse(bytes.NewReader(block), v, decoder(b, b.StartLine-1)); err != nil {
		return data[b.BodyStart:], fmt.Errorf("frontmatter: %s", err)
	}
	return data[b.BodyStart:], nil
}

// decoder is the block's format for the library, decoding with this
// package's choice of library; YAML errors name the file's line (shift is
// the number of lines above the block's first line).
func decoder(b Block, shift int) *adrg.Format {
	dec := func(data []byte, v any) error {
		if err := yaml.Unmarshal(data, v); err != nil {
			return errors.New(shiftLines(err.Error(), shift))
		}
		return nil
	}
	switch b.Format {
	case TOML:
		dec = toml.Unmarshal
	case JSON:
		dec = json.Unmarshal
	}
	return adrg.NewFormat(b.fence[0], b.fence[1], dec)
}

// Map decodes the frontmatter into a generic map (nil when there is none).
func Map(data []byte) (map[string]any, []byte, error) {
	var m map[string]any
	body, err := Parse(data, &m)
	if errors.Is(err, ErrNone) {
		return nil, data, nil
	}
	return m, body, err
}

// Line returns the file line an error of this package names ("line 4:
// ..."), or 1 when it names none: the frontmatter starts there.
func Line(err error) int {
	if err == nil {
		return 1
	}
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		if n, _ := strconv.Atoi(m[1]); n > 0 {
			return n
		}
	}
	return 1
}

func shiftLines(msg string, by int) string {
	return yamlLine.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(s[len("line "):])
		return "line " + strconv.Itoa(n+by)
	})
}

// Node returns the frontmatter as a YAML mapping node, for edits that keep
// comments and key order.
func Node(data []byte) (*yaml.Node, Block, error) {
	b, err := Split(data)
	if err != nil {
		return nil, b, err
	}
	if b.Format != YAML {
		return nil, b, fmt.Errorf("frontmatter: line 1: %s frontmatter cannot be edited here; only YAML can", b.Format)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b.YAML, &doc); err != nil {
		return nil, b, fmt.Errorf("frontmatter: %s", shiftLines(err.Error(), b.StartLine-1))
	}
	if len(doc.Content) == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	if doc.Content[0].Kind != yaml.MappingNode {
		return nil, b, fmt.Errorf("frontmatter: line %d: not a mapping of keys to values", b.StartLine)
	}
	return doc.Content[0], b, nil
}

// SetField sets key to value (a scalar, a []string, a *yaml.Node, or nil to delete) in
// the frontmatter of data, keeping every other key, its order and comments,
// and the body byte for byte. A file without frontmatter gets one.
func SetField(data []byte, key string, value any) ([]byte, error) {
	m, b, err := Node(data)
	body := data
	if errors.Is(err, ErrNone) {
		m = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	} else if err != nil {
		return nil, err
	} else {
		body = data[b.BodyStart:]
	}
	var vn *yaml.Node
	if n, ok := value.(*yaml.Node); ok {
		vn = n
	} else if value != nil {
		vn = &yaml.Node{}
		if err := vn.Encode(value); err != nil {
			return nil, fmt.Errorf("encode %s: %w", key, err)
		}
	}
	found := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			found = true
			if vn == nil {
				m.Content = append(m.Content[:i], m.Content[i+2:]...)
			} else {
				vn.LineComment = m.Content[i+1].LineComment
				m.Content[i+1] = vn
			}
			break
		}
	}
	if !found && vn != nil {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, vn)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode frontmatter: %w", err)
	}
	out := append([]byte("---\n"), buf.Bytes()...)
	out = append(out, "---\n"...)
	return append(out, body...), nil
}
