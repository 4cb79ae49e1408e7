package safefs

import (
	"bufio"
	"errors"
	"io"
)

// ReadLine reads one line, its '\n' included, from r, assembling at most
// limit bytes of it: a longer line is read past whole and returned as
// nil, with n its length, so a journal's replay skips it (and moves its
// offset on) without ever holding it. At the end of r, a line without
// its '\n' is not returned: err is io.EOF, and n counts nothing of it,
// for its writer may still be finishing it.
func ReadLine(r *bufio.Reader, limit int) (line []byte, n int64, err error) {
	var buf []byte
	over := false
	for {
		part, err := r.ReadSlice('\n')
		n += int64(len(part))
		if !over && len(buf)+len(part) <= limit {
			buf = append(buf, part...)
		} else {
			over, buf = true, nil
		}
		switch {
		case err == nil:
			if over {
				return nil, n, nil
			}
			return buf, n, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return nil, 0, io.EOF
		default:
			return nil, 0, err
		}
	}
}
