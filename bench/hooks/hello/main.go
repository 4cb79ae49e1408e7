// Command hello does nothing: bench/hooks times its spawn as the floor of
// any Go process, next to the spawn of `true` and memhook's hooks.
package main

func main() {}
