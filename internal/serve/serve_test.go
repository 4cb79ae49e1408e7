package serve

import "testing"

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:3700": true, "localhost:3700": true, "[::1]:3700": true,
		"0.0.0.0:3700": false, ":3700": false, "192.168.1.5:3700": false, "example.com:3700": false, "nonsense": false} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v", addr, got)
		}
	}
}

func TestAllowedHosts(t *testing.T) {
	h, err := allowedHosts("127.0.0.1:3700")
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{"127.0.0.1:3700", "localhost:3700", "[::1]:3700"} {
		if !h[ok] {
			t.Errorf("%s refused", ok)
		}
	}
	for _, bad := range []string{"127.0.0.1:3701", "evil.example:3700", "localhost"} {
		if h[bad] {
			t.Errorf("%s allowed", bad)
		}
	}
	if _, err := allowedHosts("3700"); err == nil {
		t.Error("an address without a port was accepted")
	}
}
