package app

import (
	"runtime"
	"sync"
)

// parallel calls fn(i) for i in [0,n) on a few goroutines. Import work is
// mostly file system calls, so more workers than cores keeps the disk busy.
func parallel(n int, fn func(i int)) {
	workers := min(4*runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
