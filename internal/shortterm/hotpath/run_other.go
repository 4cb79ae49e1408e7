//go:build !unix

package hotpath

func runMemhook(memhook string, args, env []string, stdin []byte, sys System) error {
	return runChild(memhook, args, env, stdin, sys)
}
