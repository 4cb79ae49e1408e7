package testfile

import (
	"runtime"
	"time"
)

// PeakHeap runs fn while sampling the heap in use every 2 ms, and returns
// the most seen over what was in use before fn began: the memory a step
// costs at its worst, for a test that bounds it (a bound in bytes, never
// a time).
func PeakHeap(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	peak := base
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var s runtime.MemStats
		for {
			runtime.ReadMemStats(&s)
			peak = max(peak, s.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done // peak is read only after the sampler has stopped
	runtime.ReadMemStats(&ms)
	return max(peak, ms.HeapInuse) - base
}
