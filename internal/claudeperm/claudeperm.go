// Package claudeperm adds and removes permission rules in a Claude Code
// settings file (~/.claude/settings.json) without losing anything else it
// holds: every other key, its order and its value are kept, and the file is
// replaced atomically, so Claude Code never reads half a file.
//
// Use it as
//
//	ch, err := claudeperm.Allow(path, []string{"mcp__plugin_cerebro_memory__memory_search"})
//	// ch.Added: the rules written; ch.Present: already allowed; ch.Refused: the person denies or asks for them
//	ch, err = claudeperm.Revoke(path, ch.Added)
//
// A file that is not JSON, or whose permissions are not the shapes Claude
// Code reads (an object, arrays of rules), is an error and stays as it is.
// A rule the person put under permissions.deny or permissions.ask (or a
// rule for its whole MCP server) is their choice: Allow leaves it there
// and adds nothing for it. A settings file that is a symbolic link (a
// dotfiles checkout) is changed where it points, and stays a link.
//
// [Installer] is memhook's install and remove on top of them: it records
// what it added ([Record]) so that remove takes out those rules only.
package claudeperm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cerebro-mem/cerebro/internal/store/atomicfile"
	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// maxSize bounds what is read: a settings file is a few kilobytes.
const maxSize = 4 << 20

// Change is what Allow or Revoke did to a file.
type Change struct {
	Path    string   // the file written (a link's target)
	Added   []string // rules Allow wrote
	Removed []string // rules Revoke took out
	Present []string // rules already allowed (by the rule or its server's), left as they were
	Refused []string // rules the person denies or asks for: nothing added
}

// Allow adds each rule to permissions.allow unless the file already allows
// it or the person denies or asks for it. A missing file is created.
func Allow(path string, rules []string) (Change, error) {
	return edit(path, func(doc *document, ch *Change) error {
		allow, err := doc.rules("allow")
		if err != nil {
			return err
		}
		deny, err := doc.rules("deny")
		if err != nil {
			return err
		}
		ask, err := doc.rules("ask")
		if err != nil {
			return err
		}
		for _, r := range rules {
			switch {
			case covers(allow, r):
				ch.Present = append(ch.Present, r)
			case covers(deny, r) || covers(ask, r):
				ch.Refused = append(ch.Refused, r)
			default:
				allow = append(allow, r)
				ch.Added = append(ch.Added, r)
			}
		}
		if len(ch.Added) > 0 {
			return doc.setRules("allow", allow)
		}
		return nil
	})
}

// Revoke takes each rule out of permissions.allow (every copy of it) and
// nothing else; an allow list left empty goes, and so does a permissions
// object left empty. A missing file is no change.
func Revoke(path string, rules []string) (Change, error) {
	return edit(path, func(doc *document, ch *Change) error {
		allow, err := doc.rules("allow")
		if err != nil {
			return err
		}
		kept := allow[:0:0]
		for _, r := range allow {
			if slices.Contains(rules, r) {
				if !slices.Contains(ch.Removed, r) {
					ch.Removed = append(ch.Removed, r)
				}
				continue
			}
			kept = append(kept, r)
		}
		if len(ch.Removed) > 0 {
			return doc.setRules("allow", kept)
		}
		return nil
	})
}

// covers reports whether a rule list holds rule, or the rule for its whole
// MCP server (mcp__S covers mcp__S__tool, as Claude Code reads it).
func covers(list []string, rule string) bool {
	for _, r := range list {
		if r == rule || (strings.HasPrefix(r, "mcp__") && strings.HasPrefix(rule, r+"__")) {
			return true
		}
	}
	return false
}

// edit reads path, lets change alter the document, and writes it back
// when it changed. It reads the file again just before writing: when
// something (Claude Code's /config, an editor) changed it meanwhile, the
// edit starts over on the new text, so nothing written by another is lost.
func edit(path string, change func(*document, *Change) error) (Change, error) {
	target, err := resolve(path)
	if err != nil {
		return Change{}, err
	}
	for attempt := 0; ; attempt++ {
		data, mode, err := read(target)
		if err != nil {
			return Change{}, err
		}
		doc, err := parse(data)
		if err != nil {
			return Change{}, fmt.Errorf("read %s: %w", target, err)
		}
		ch := Change{Path: target}
		if err := change(doc, &ch); err != nil {
			return Change{}, fmt.Errorf("%s: %w", target, err)
		}
		if !doc.changed {
			return ch, nil
		}
		out, err := doc.encode()
		if err != nil {
			return Change{}, fmt.Errorf("encode %s: %w", target, err)
		}
		beforeWrite(target)
		if now, _, err := read(target); err != nil {
			return Change{}, err
		} else if !bytes.Equal(now, data) {
			if attempt < 3 {
				continue
			}
			return Change{}, fmt.Errorf("%s keeps changing while it is edited; nothing was changed, try again", target)
		}
		if err := atomicfile.Write(target, out, mode); err != nil {
			return Change{}, fmt.Errorf("write %s: %w", target, err)
		}
		return ch, nil
	}
}

// beforeWrite runs between the edit and the check that the file did not
// change meanwhile; a test sets it to change the file there.
var beforeWrite = func(path string) {}

// resolve follows a symbolic link to the file it names; what is there
// must be a regular file or nothing.
func resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, nil
	case err != nil:
		return "", fmt.Errorf("read %s: %w", path, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return "", fmt.Errorf("follow the link %s: %w", path, err)
		}
		return resolve(target)
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	return path, nil
}

// read returns the file's bytes and mode through the safe file layer
// (which opens no FIFO nor device); a missing file is empty, to be created
// private to its owner.
func read(path string) ([]byte, fs.FileMode, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o600, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	data, err := safefs.ReadFile(path, maxSize)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	return data, fi.Mode().Perm(), nil
}

// member is one key of a JSON object and its value, as written.
type member struct {
	key string
	val json.RawMessage
}

// document is the settings file's top object, its members in their order
// and each value as its bytes, so that what is not edited is written back
// as it was read.
type document struct {
	members []member
	changed bool
}

func parse(data []byte) (*document, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &document{}, nil
	}
	ms, err := decodeObject(data)
	if err != nil {
		return nil, fmt.Errorf("not a JSON object (%v); fix it or move it aside, nothing was changed", err)
	}
	return &document{members: ms}, nil
}

// decodeObject splits a JSON object into its members; anything else, or
// anything after the object, is an error.
func decodeObject(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, fmt.Errorf("the file holds %v, not an object", tok)
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		ms = append(ms, member{key: key, val: val})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the object")
	}
	return ms, nil
}

// last is the index of key's last member (the one a JSON reader keeps), or -1.
func last(ms []member, key string) int {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].key == key {
			return i
		}
	}
	return -1
}

// permissions is the permissions object's members; nil when there is none.
func (d *document) permissions() ([]member, error) {
	i := last(d.members, "permissions")
	if i < 0 {
		return nil, nil
	}
	ms, err := decodeObject(d.members[i].val)
	if err != nil {
		return nil, errors.New("permissions is not an object; nothing was changed")
	}
	return ms, nil
}

// rules is the list permissions.<list> holds; its entries that are not
// strings are kept by setRules but match no rule.
func (d *document) rules(list string) ([]string, error) {
	perms, err := d.permissions()
	if err != nil {
		return nil, err
	}
	i := last(perms, list)
	if i < 0 {
		return nil, nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(perms[i].val, &raw); err != nil {
		return nil, fmt.Errorf("permissions.%s is not a list; nothing was changed", list)
	}
	out := make([]string, 0, len(raw))
	for _, r := range raw {
		var s string
		if json.Unmarshal(r, &s) == nil {
			out = append(out, s)
		}
	}
	return out, nil
}

// setRules replaces the string entries of permissions.<list> with rules,
// keeping the entries that are not strings where they were; an empty list
// goes, and a permissions object left empty goes with it.
func (d *document) setRules(list string, rules []string) error {
	perms, err := d.permissions()
	if err != nil {
		return err
	}
	var vals []json.RawMessage
	if i := last(perms, list); i >= 0 {
		var raw []json.RawMessage
		if err := json.Unmarshal(perms[i].val, &raw); err != nil {
			return fmt.Errorf("permissions.%s is not a list; nothing was changed", list)
		}
		for _, r := range raw {
			var s string
			if json.Unmarshal(r, &s) != nil {
				vals = append(vals, r)
			}
		}
	}
	for _, r := range rules {
		b, err := marshal(r)
		if err != nil {
			return err
		}
		vals = append(vals, b)
	}
	if len(vals) == 0 {
		perms = remove(perms, list)
	} else {
		b, err := encodeArray(vals)
		if err != nil {
			return err
		}
		perms = set(perms, list, b)
	}
	if len(perms) == 0 {
		d.members = remove(d.members, "permissions")
	} else {
		b, err := encodeObject(perms)
		if err != nil {
			return err
		}
		d.members = set(d.members, "permissions", b)
	}
	d.changed = true
	return nil
}

// set gives key's last member the value, or adds the key at the end.
func set(ms []member, key string, val json.RawMessage) []member {
	if i := last(ms, key); i >= 0 {
		ms[i].val = val
		return ms
	}
	return append(ms, member{key: key, val: val})
}

// remove drops every member named key.
func remove(ms []member, key string) []member {
	return slices.DeleteFunc(ms, func(m member) bool { return m.key == key })
}

// encode writes the document as Claude Code writes its settings: two
// spaces of indentation and a final newline. The values keep their bytes;
// only the space between them changes.
func (d *document) encode() ([]byte, error) {
	b, err := encodeObject(d.members)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func encodeObject(ms []member) (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshal(m.key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func encodeArray(vals []json.RawMessage) (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(v)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// marshal encodes a string as JavaScript's JSON.stringify does (no
// escaping of <, > and &), so a key is written back as Claude Code wrote it.
func marshal(s string) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
