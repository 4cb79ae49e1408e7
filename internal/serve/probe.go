package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"time"
)

// The client side of a running server, for `memhook serve --background`:
// whether something answers at an address, which projects it shows, and
// where a new server for a project goes.

// Answering reports whether a memhook server answers at addr.
func Answering(ctx context.Context, addr string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/en/settings?section=memory-test", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// projectsAt asks the server at addr which projects it shows; ok is false
// when nothing answers there, and the list is empty when what answers is
// not a memhook server that lists them.
func projectsAt(ctx context.Context, addr string) (list []projectInfo, ok bool) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/api/v1/projects", nil)
	if err != nil {
		return nil, false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	var out struct {
		Projects []projectInfo `json:"projects"`
	}
	if resp.StatusCode == http.StatusOK && json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&out) == nil {
		return out.Projects, true
	}
	return nil, true
}

// PlaygroundURL is the playground of project id on the server at addr;
// start says it is the project that server was started for.
func PlaygroundURL(addr, id string, start bool) string {
	u := "http://" + addr + "/en/settings?section=memory-test"
	if !start {
		u += "&project=" + url.QueryEscape(id)
	}
	return u
}

// Place is where a server for a project goes.
type Place struct {
	Addr string // the address to use, "" when none of the ports tried is free
	// Running says a server at Addr shows the project already; Start,
	// that it was started for it.
	Running, Start bool
	// Others are the addresses tried whose server shows other projects,
	// each with what it shows.
	Others []string
}

// FindPlace tries addr and the nine ports after it: a server that shows
// project id already is reused; one that shows another project (started
// in another project, which cannot reach this one) is left alone and the
// next port is tried; the first free port is the place. Port 0 tries
// once.
func FindPlace(ctx context.Context, addr, id string) Place {
	var pl Place
	host, port, _ := net.SplitHostPort(addr)
	first, _ := strconv.Atoi(port)
	for i := 0; i < 10; i++ {
		try := net.JoinHostPort(host, strconv.Itoa(first+i))
		list, up := projectsAt(ctx, try)
		if !up {
			if ln, err := net.Listen("tcp", try); err == nil {
				ln.Close()
				pl.Addr = try
				return pl
			}
			continue // taken by something that does not speak HTTP
		}
		for _, p := range list {
			if p.ID == id {
				return Place{Addr: try, Running: true, Start: p.Start, Others: pl.Others}
			}
		}
		if first == 0 {
			break
		}
		shows := "another program"
		for _, p := range list {
			if p.Start {
				shows = "project " + p.Name
			}
		}
		pl.Others = append(pl.Others, try+" ("+shows+")")
	}
	return pl
}

// WaitAnswering waits up to 10 s for the server cmd started to answer at
// addr; the error says whether it exited first or never answered.
func WaitAnswering(ctx context.Context, cmd *exec.Cmd, addr string) error {
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("the server exited at once (%v)", err)
		case <-time.After(100 * time.Millisecond):
		}
		if Answering(ctx, addr) {
			return nil
		}
	}
	return fmt.Errorf("the server did not answer at %s within 10 s", addr)
}
