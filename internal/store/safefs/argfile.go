package safefs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrKeyFile is a file argument that is a private key or a credentials
// file: cerebro never copies one into memory, whoever names it.
var ErrKeyFile = errors.New("is a private key or credentials file (refused: memory never holds one)")

// ErrLinkInPath is a path reached through a symbolic link in one of its
// folders: the file or folder read would not be the one named.
var ErrLinkInPath = errors.New("is reached through a symbolic link")

// keyNames are file names that hold keys or credentials.
var keyNames = map[string]bool{
	"id_rsa": true, "id_dsa": true, "id_ecdsa": true, "id_ed25519": true, "id_ecdsa_sk": true, "id_ed25519_sk": true,
	".netrc": true, "_netrc": true, ".pgpass": true, ".git-credentials": true, ".npmrc": true, ".pypirc": true,
	".env": true, "credentials": true, "secring.gpg": true,
}

// keyExts are extensions of key and keystore files.
var keyExts = map[string]bool{
	".pem": true, ".key": true, ".p12": true, ".pfx": true, ".jks": true, ".keystore": true, ".kdbx": true, ".ppk": true,
}

// keyDirs are folders that hold keys and credentials.
var keyDirs = map[string]bool{
	".ssh": true, ".gnupg": true, ".aws": true, ".azure": true, ".kube": true, ".docker": true, ".password-store": true, "gcloud": true,
}

// keyFile says why path is a key or credentials file by its name, or "".
func keyFile(path string) string {
	base := filepath.Base(path)
	lower := strings.ToLower(base)
	switch {
	case keyNames[lower]:
		return base
	case strings.HasPrefix(lower, ".env."):
		return base
	case keyExts[filepath.Ext(lower)]:
		return "a " + filepath.Ext(lower) + " file"
	}
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if keyDirs[part] {
			return "in " + part + "/"
		}
	}
	return ""
}

// privateKeyMarks are what the start of a key file holds, whatever its name.
var privateKeyMarks = [][]byte{[]byte("PRIVATE KEY-----"), []byte("PuTTY-User-Key-File"), []byte("-----BEGIN PGP PRIVATE")}

// ArgumentPath checks a file a person names on the command line (an
// ingest source, --from, --artifact, --request) before it is opened: made
// absolute, never a key or credentials file by its name or folder, and
// never reached through a symbolic link in any of its folders ([NoLinkIn]:
// a repository can plant docs/ as a link to ~/.ssh, and the path may be
// given from anywhere).
func ArgumentPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if why := keyFile(abs); why != "" {
		return "", fmt.Errorf("%s (%s) %w", path, why, ErrKeyFile)
	}
	if err := NoLinkIn(filepath.Dir(abs)); err != nil {
		return "", fmt.Errorf("%s %w", path, err)
	}
	return abs, nil
}

// NoLinkIn checks every component of the absolute path p, p included, and
// refuses the first that is a symbolic link with [ErrLinkInPath], naming
// it and its target. The entries right under the file system's root are
// the system's own (/tmp and /var are links on macOS, /home on some
// systems) and only an administrator can make them, so they are followed.
// A missing component ends the check: nothing below it can be reached.
func NoLinkIn(p string) error {
	if !filepath.IsAbs(p) {
		return fmt.Errorf("%s: not an absolute path", p)
	}
	p = filepath.Clean(p)
	vol := filepath.VolumeName(p)
	rest := strings.Trim(p[len(vol):], string(filepath.Separator))
	if rest == "" {
		return nil
	}
	dir := vol + string(filepath.Separator)
	for i, part := range strings.Split(rest, string(filepath.Separator)) {
		dir = filepath.Join(dir, part)
		fi, err := os.Lstat(dir)
		if err != nil {
			return nil
		}
		if i > 0 && fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(dir)
			return fmt.Errorf("%w (%s points to %s)", ErrLinkInPath, dir, target)
		}
	}
	return nil
}

// OpenArgument opens a file a person names on the command line for
// reading: [ArgumentPath]'s checks, then only a regular file that is not a
// link (a FIFO, device or kernel interface is refused without blocking),
// at most limit bytes (limit <= 0: no limit), not a private key by its
// first bytes either. The caller closes the file.
func OpenArgument(path string, limit int64) (*os.File, fs.FileInfo, error) {
	abs, err := ArgumentPath(path)
	if err != nil {
		return nil, nil, err
	}
	d, err := OpenDir("", filepath.Dir(abs), false)
	if err != nil {
		// Named by the file the person gave, not the folder the layer
		// opened first.
		var pe *fs.PathError
		if errors.As(err, &pe) && errors.Is(err, fs.ErrNotExist) {
			return nil, nil, &fs.PathError{Op: "open", Path: path, Err: pe.Err}
		}
		return nil, nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer d.Close()
	f, err := d.OpenFile(filepath.Base(abs), os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if limit > 0 && fi.Size() > limit {
		f.Close()
		return nil, nil, tooLarge(path, fi.Size(), limit)
	}
	head := make([]byte, 4<<10)
	n, _ := io.ReadFull(f, head)
	for _, m := range privateKeyMarks {
		if bytes.Contains(head[:n], m) {
			f.Close()
			return nil, nil, fmt.Errorf("%s holds a private key: %w", path, ErrKeyFile)
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("rewind %s: %w", path, err)
	}
	return f, fi, nil
}

// ReadArgument reads the whole of a file argument under [OpenArgument]'s
// rules; "-" is not a file here (the caller reads its stdin, bounded).
func ReadArgument(path string, limit int64) ([]byte, error) {
	f, _, err := OpenArgument(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, limit)
}

// ReadStdin reads r (a command's stdin) to its end, refusing more than
// limit bytes: a page piped in is bounded like a page read from a file.
func ReadStdin(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read stdin: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("stdin holds more than %d bytes: %w", limit, ErrTooLarge)
	}
	return data, nil
}

// ReadTextArgument reads the text a command is handed: the file argument
// arg under [OpenArgument]'s rules, or r (its stdin) when arg is "-",
// bounded by limit either way; too much is an error wrapping
// [ErrTooLarge].
func ReadTextArgument(arg string, r io.Reader, limit int64) ([]byte, error) {
	if arg == "-" {
		return ReadStdin(r, limit)
	}
	return ReadArgument(arg, limit)
}
