package gitrepo

import (
	"context"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
)

// file:// remotes are served in-process (see remote.go): cerebro never runs
// the git-upload-pack and git-receive-pack programs go-git's file transport
// would.

var installFile sync.Once

// useInProcessFile serves file:// remotes inside this process.
func useInProcessFile() {
	installFile.Do(func() {
		loader := streamingLoader{}
		client.InstallProtocol("file", fileTransport{Transport: server.NewClient(loader), loader: loader})
	})
}

// fileTransport is go-git's in-process server with one fix: a fetch tells
// the server the commits it has, and git ignores those it does not know,
// while go-git's server fails on them ("object not found") — which is
// every fetch by a clone that has commits of its own to merge.
type fileTransport struct {
	transport.Transport
	loader server.Loader
}

func (f fileTransport) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	sess, err := f.Transport.NewUploadPackSession(ep, auth)
	if err != nil {
		return nil, err
	}
	sto, err := f.loader.Load(ep)
	if err != nil {
		sess.Close()
		return nil, err
	}
	return &knownHaves{UploadPackSession: sess, sto: sto}, nil
}

// streamingLoader opens a file:// remote as go-git's own loader does,
// with the object store of [newStorage]: the in-process server packs a
// large blob for the fetch as a stream, not read whole into memory.
type streamingLoader struct{}

func (streamingLoader) Load(ep *transport.Endpoint) (storer.Storer, error) {
	fs := osfs.New(ep.Path, osfs.WithBoundOS())
	if _, err := fs.Stat("config"); err != nil {
		if _, err := fs.Stat(git.GitDirName); err != nil {
			return nil, transport.ErrRepositoryNotFound
		}
		if fs, err = fs.Chroot(git.GitDirName); err != nil {
			return nil, err
		}
	}
	return newStorage(fs), nil
}

type knownHaves struct {
	transport.UploadPackSession
	sto storer.EncodedObjectStorer
}

func (k *knownHaves) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	kept := req.Haves[:0]
	for _, h := range req.Haves {
		if k.sto.HasEncodedObject(h) == nil {
			kept = append(kept, h)
		}
	}
	req.Haves = kept
	return k.UploadPackSession.UploadPack(ctx, req)
}
