package gitrepo

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// Remote URLs: which cerebro takes, and how one is shown.

// localPath is the folder of a file:// URL or an absolute path.
func localPath(raw string) (string, bool) {
	if filepath.IsAbs(raw) {
		return raw, true
	}
	if u, err := url.Parse(raw); err == nil && u.Scheme == "file" && u.Path != "" {
		return filepath.FromSlash(u.Path), true
	}
	return "", false
}

// CheckURL refuses what cerebro will not push to: an unknown scheme and a
// URL carrying a password (cerebro stores no credential; use ssh with an
// agent).
func CheckURL(raw string) error {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "":
		return errors.New("the remote URL is empty")
	case filepath.IsAbs(raw):
		return nil
	}
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		switch u.Scheme {
		case "file", "ssh", "https", "http":
		default:
			return fmt.Errorf("remote %s: scheme %q is not supported (file://, ssh://, user@host:path, https://)", redactURL(raw), u.Scheme)
		}
		if _, has := u.User.Password(); has {
			return fmt.Errorf("remote %s holds a password: cerebro stores no credential; use ssh with your agent", redactURL(raw))
		}
		return nil
	}
	// scp-like: [user@]host:path
	if i := strings.Index(raw, ":"); i > 0 && !strings.Contains(raw[:i], "/") {
		return nil
	}
	return fmt.Errorf("remote %q is not a git URL (file://, ssh://, user@host:path, https://)", raw)
}

// redactURL hides a password in a URL before it is shown.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			return u.String()
		}
	}
	return raw
}
