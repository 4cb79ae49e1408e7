package hook

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// MaxField bounds one string of the hook input (a prompt, the last
// assistant message, a field of tool_input): a longer one is cut when it is
// read, never held whole, and ends with a note of its full size. A 60 MB
// prompt costs a hook this much, not 60 MB or several copies of it.
const MaxField = 2 << 20

// MaxStdin bounds how much of stdin a hook reads at all.
const MaxStdin = 512 << 20

// ReadTimeout bounds how long a hook waits for its input: Claude Code
// writes it at once and closes stdin, a wrapper may never close it. The
// input is complete when its JSON object closes, whether or not stdin does.
const ReadTimeout = 4 * time.Second

// maxDepth bounds the nesting of the input ([[[[… costs no stack).
const maxDepth = 256

// cutNote ends a string cut at read; it says what is missing, so a cut
// prompt is never taken for the whole of it.
func cutNote(total int64) string {
	return " …[cut by cerebro at read: " + strconv.FormatInt(total, 10) + " bytes in all]"
}

// ReadInput reads one JSON value from r within timeout, streaming, and
// returns it re-encoded with every string cut to [MaxField] bytes (on a
// character boundary) and the whole kept under [MaxInput]. It returns as
// soon as the value is complete: a stdin left open costs nothing more,
// and one that never completes a value costs timeout, then an error.
func ReadInput(r io.Reader, timeout time.Duration) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		b := &bounded{br: bufio.NewReaderSize(r, 64<<10)}
		err := b.top()
		done <- result{b.out, err}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case res := <-done:
		return res.data, res.err
	case <-t.C:
		// The reading goroutine is left blocked on stdin; the hook process
		// ends soon after and takes it along.
		return nil, fmt.Errorf("read hook input: no complete JSON value within %s (stdin was never closed?)", timeout)
	}
}

// bounded is a streaming JSON reader that copies what it reads, cutting
// strings.
type bounded struct {
	br   *bufio.Reader
	out  []byte
	read int64
}

var errSyntax = errors.New("parse hook input: not valid JSON")

func (b *bounded) byte() (byte, error) {
	c, err := b.br.ReadByte()
	if err == io.EOF {
		return 0, io.ErrUnexpectedEOF
	}
	if err != nil {
		return 0, fmt.Errorf("read hook input: %w", err)
	}
	b.read++
	if b.read > MaxStdin {
		return 0, fmt.Errorf("read hook input: larger than %d bytes", MaxStdin)
	}
	return c, nil
}

func (b *bounded) skipSpace() (byte, error) {
	for {
		c, err := b.byte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c, nil
	}
}

// top reads the one value of the input; an empty input is [ErrEmpty].
func (b *bounded) top() error {
	c, err := b.skipSpace()
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return ErrEmpty
	}
	if err != nil {
		return err
	}
	if err := b.value(c, 0); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return errSyntax
		}
		return err
	}
	return nil
}

func (b *bounded) value(c byte, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("parse hook input: nested deeper than %d", maxDepth)
	}
	if len(b.out) > 2*MaxInput {
		return fmt.Errorf("read hook input: more than %d bytes once its strings are cut", 2*MaxInput)
	}
	switch {
	case c == '{' || c == '[':
		return b.container(c, depth)
	case c == '"':
		return b.str()
	case c == 't':
		return b.literal("true")
	case c == 'f':
		return b.literal("false")
	case c == 'n':
		return b.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return b.number(c)
	}
	return errSyntax
}

func (b *bounded) container(open byte, depth int) error {
	close := byte('}')
	if open == '[' {
		close = ']'
	}
	b.out = append(b.out, open)
	c, err := b.skipSpace()
	if err != nil {
		return err
	}
	if c == close {
		b.out = append(b.out, close)
		return nil
	}
	for {
		if open == '{' {
			if c != '"' {
				return errSyntax
			}
			if err := b.str(); err != nil {
				return err
			}
			if c, err = b.skipSpace(); err != nil {
				return err
			} else if c != ':' {
				return errSyntax
			}
			b.out = append(b.out, ':')
			if c, err = b.skipSpace(); err != nil {
				return err
			}
		}
		if err := b.value(c, depth+1); err != nil {
			return err
		}
		if c, err = b.skipSpace(); err != nil {
			return err
		}
		switch c {
		case close:
			b.out = append(b.out, close)
			return nil
		case ',':
			b.out = append(b.out, ',')
			if c, err = b.skipSpace(); err != nil {
				return err
			}
		default:
			return errSyntax
		}
	}
}

// str copies a string (its opening quote read) up to [MaxField] bytes, or
// less once the input kept is over [MaxInput], and skips the rest.
func (b *bounded) str() error {
	limit := MaxField
	if len(b.out) > MaxInput {
		limit = 0
	}
	b.out = append(b.out, '"')
	start := len(b.out)
	var total int64
	cut := false
	keep := func(unit []byte) {
		total += int64(len(unit))
		if cut || len(b.out)-start+len(unit) > limit {
			cut = true
			return
		}
		b.out = append(b.out, unit...)
	}
	var esc [6]byte
	for {
		// The plain run up to the next quote, backslash or control byte
		// is taken from the buffer in one piece: a 60 MB field is read at
		// memory speed, not byte by byte.
		if run := b.plainRun(); len(run) > 0 {
			for len(run) > 0 {
				n := len(run)
				if !cut {
					room := limit - (len(b.out) - start)
					if n > room {
						n = max(0, room)
						for n > 0 && n < len(run) && run[n]&0xC0 == 0x80 {
							n-- // never split a character
						}
					}
				} else {
					n = 0
				}
				if n > 0 {
					b.out = append(b.out, run[:n]...)
					total += int64(n)
				}
				if n < len(run) {
					cut = true
					total += int64(len(run) - n)
				}
				if err := b.discard(len(run)); err != nil {
					return err
				}
				run = b.plainRun()
			}
			continue
		}
		c, err := b.byte()
		if err != nil {
			return err
		}
		switch {
		case c == '"':
			if cut {
				b.out = append(b.out, cutNote(total)...)
			}
			b.out = append(b.out, '"')
			return nil
		case c == '\\':
			e, err := b.byte()
			if err != nil {
				return err
			}
			unit := append(esc[:0], '\\', e)
			switch e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for i := 0; i < 4; i++ {
					h, err := b.byte()
					if err != nil {
						return err
					}
					if !isHex(h) {
						return errSyntax
					}
					unit = append(unit, h)
				}
			default:
				return errSyntax
			}
			keep(unit)
		case c < 0x20:
			return errSyntax
		case c < 0x80:
			keep([]byte{c})
		default:
			// A multi-byte character is kept or cut whole: its
			// continuation bytes follow it.
			unit := []byte{c}
			for n := utf8Len(c) - 1; n > 0; n-- {
				next, err := b.br.Peek(1)
				if err != nil || next[0]&0xC0 != 0x80 {
					break // invalid UTF-8: Decode replaces it
				}
				cc, _ := b.byte()
				unit = append(unit, cc)
			}
			keep(unit)
		}
	}
}

// plainRun is the buffered bytes up to the next byte a string treats
// specially ('"', '\\', a control byte) or the end of a character cut by
// the buffer's end; it reads more when the buffer is empty.
func (b *bounded) plainRun() []byte {
	buf, _ := b.br.Peek(b.br.Buffered())
	if len(buf) == 0 {
		if _, err := b.br.Peek(1); err != nil {
			return nil
		}
		buf, _ = b.br.Peek(b.br.Buffered())
	}
	i := 0
	for i < len(buf) {
		c := buf[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		i++
	}
	// Leave a character split by the buffer's end to the byte path.
	j := i
	for j > 0 && j > i-4 && buf[j-1] >= 0x80 {
		j--
		if buf[j] >= 0xC0 {
			if j+utf8Len(buf[j]) <= i {
				j = i
			}
			break
		}
	}
	return buf[:j]
}

// discard drops n buffered bytes, counted against [MaxStdin].
func (b *bounded) discard(n int) error {
	b.br.Discard(n)
	b.read += int64(n)
	if b.read > MaxStdin {
		return fmt.Errorf("read hook input: larger than %d bytes", MaxStdin)
	}
	return nil
}

func utf8Len(c byte) int {
	switch {
	case c >= 0xF0:
		return 4
	case c >= 0xE0:
		return 3
	case c >= 0xC0:
		return 2
	}
	return 1
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (b *bounded) literal(word string) error {
	b.out = append(b.out, word[0])
	for i := 1; i < len(word); i++ {
		c, err := b.byte()
		if err != nil {
			return err
		}
		if c != word[i] {
			return errSyntax
		}
		b.out = append(b.out, c)
	}
	return nil
}

// number copies a number; gjson validates its form afterwards.
func (b *bounded) number(first byte) error {
	b.out = append(b.out, first)
	for n := 0; ; n++ {
		next, err := b.br.Peek(1)
		if err != nil {
			return nil // the input ends with the number
		}
		c := next[0]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return nil
		}
		if n > 1024 {
			return errSyntax // no hook sends a number of a thousand digits
		}
		b.byte()
		b.out = append(b.out, c)
	}
}
