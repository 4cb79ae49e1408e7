package transcript

// A transcript line longer than the reader's buffer (a pasted log, a
// file written by a tool, a long reply) is shrunk as it is read: every
// JSON string in it is kept to keepString bytes, the rest dropped before
// it is ever held, so a 15 MB prompt costs the reader about a megabyte,
// not the line and the copies a parse of it makes (67 MB of heap once).
// What memory keeps of one text is [MaxText] anyway.

// keepString is how much of one string of a long line is kept: well over
// [MaxText], so a text cut later is cut where it always was.
const keepString = 1 << 20

// stringCutMark ends a string shrunk at read.
const stringCutMark = " …[cut by cerebro at read]"

// shrinker copies a JSON line chunk by chunk, cutting each string to
// keepString bytes on a character and escape boundary.
type shrinker struct {
	out   []byte
	raw   int64 // bytes of the line read so far
	inStr bool
	esc   int  // -1 after a backslash; n: hex digits of \uXXXX still to come
	kept  int  // bytes of the current string kept
	cut   bool // the rest of the current string is dropped
}

func (s *shrinker) reset() { *s = shrinker{out: s.out[:0]} }

func (s *shrinker) write(p []byte) {
	s.raw += int64(len(p))
	for _, c := range p {
		if !s.inStr {
			s.out = append(s.out, c)
			if c == '"' {
				s.inStr, s.kept, s.cut, s.esc = true, 0, false, 0
			}
			continue
		}
		switch {
		case s.esc == -1:
			s.esc = 0
			if c == 'u' {
				s.esc = 4
			}
		case s.esc > 0:
			s.esc--
		case c == '"':
			if s.cut {
				s.out = append(s.out, stringCutMark...)
			}
			s.out = append(s.out, c)
			s.inStr = false
			continue
		default:
			// A boundary: not inside an escape, not a UTF-8 continuation.
			if c < 0x80 || c >= 0xC0 {
				if !s.cut && s.kept >= keepString {
					s.cut = true
				}
			}
			if c == '\\' {
				s.esc = -1
			}
		}
		if !s.cut {
			s.out = append(s.out, c)
			s.kept++
		}
	}
}
