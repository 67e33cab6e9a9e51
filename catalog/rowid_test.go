package catalog

import (
	"sync"
	"testing"
	"time"
)

// TestNextRowID: row ids are positive, unique across goroutines, grow in
// the order each goroutine draws them, and their high bits are the
// milliseconds since 2020 (so ids drawn later, by any proxy, sort after).
func TestNextRowID(t *testing.T) {
	const workers, each = 8, 20000
	before := (time.Now().UnixMilli() - rowIDEpoch) << rowIDCounterBits
	var mu sync.Mutex
	seen := make(map[int64]bool, workers*each)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids := make([]int64, each)
			for i := range ids {
				ids[i] = NextRowID()
			}
			for i, id := range ids {
				if id <= 0 || id < before {
					t.Errorf("id %d: not positive, or below the time it was drawn at", id)
					return
				}
				if i > 0 && id <= ids[i-1] {
					t.Errorf("id %d drawn after %d", id, ids[i-1])
					return
				}
			}
			mu.Lock()
			defer mu.Unlock()
			for _, id := range ids {
				if seen[id] {
					t.Errorf("id %d drawn twice", id)
					return
				}
				seen[id] = true
			}
		}()
	}
	wg.Wait()
	after := (time.Now().UnixMilli() - rowIDEpoch + 1) << rowIDCounterBits
	if id := NextRowID(); id >= after+(1<<rowIDCounterBits)*workers*each {
		t.Errorf("id %d runs far ahead of the clock", id)
	}
}
