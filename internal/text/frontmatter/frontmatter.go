// Package frontmatter reads and edits the YAML block at the top of a
// Markdown memory file ("---" lines around it), the way Obsidian does.
//
// [Parse] decodes it into a struct or map with errors that name the line in
// the file; [Split] gives the raw block and where the body starts, for tools
// that must edit one field without reformatting the rest ([SetField]).
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/cerebro-mem/cerebro/internal/text/lazyregexp"
	"gopkg.in/yaml.v3"
)

// MaxSize bounds the frontmatter block; anything larger is not metadata.
const MaxSize = 64 << 10

// ErrNone means the file has no frontmatter block.
var ErrNone = errors.New("no frontmatter")

// Block is the position of a frontmatter block inside a file.
type Block struct {
	YAML      []byte // the lines between the fences
	StartLine int    // 1-based line of the first YAML line (2 for a file that opens with "---")
	BodyLine  int    // 1-based line where the body starts
	BodyStart int    // byte offset where the body starts
}

// Split finds the frontmatter block. A file whose first line is "---" but
// never closes the block has broken frontmatter and gets an error.
func Split(data []byte) (Block, error) {
	// Offsets count from the file's first byte, a byte order mark included.
	bom := len(data)
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	bom -= len(data)
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if string(bytes.TrimRight(first, " \t\r")) != "---" || !found {
		return Block{}, ErrNone
	}
	off := len(first) + 1
	line := 2
	for len(rest) > 0 {
		l, next, more := bytes.Cut(rest, []byte("\n"))
		t := string(bytes.TrimRight(l, " \t\r"))
		if t == "---" || t == "..." {
			end := off + len(l)
			if more {
				end++
			}
			b := Block{YAML: data[len(first)+1 : off], StartLine: 2, BodyLine: line + 1, BodyStart: bom + end}
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
	return Block{}, fmt.Errorf("line 1: frontmatter opened with --- is never closed")
}

var yamlLine = lazyregexp.New(`line (\d+)`)

// Parse decodes the frontmatter of data into v and returns the body. Errors
// carry the line number in the file ("line 4: ...").
func Parse(data []byte, v any) (body []byte, err error) {
	b, err := Split(data)
	if err != nil {
		return data, err
	}
	if err := yaml.Unmarshal(b.YAML, v); err != nil {
		return data[b.BodyStart:], fmt.Errorf("frontmatter: %s", shiftLines(err.Error(), b.StartLine-1))
	}
	return data[b.BodyStart:], nil
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
