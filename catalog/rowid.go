package catalog

import (
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// Row ids of tables without a primary key (RowIDColumn) grow in the order
// rows are inserted, so that such a table reads back in that order (its
// scans merge its shards by key), as a PostgreSQL heap that has seen no
// update or delete does: clients' tests and applications often expect it.
//
// An id is the milliseconds since rowIDEpoch above rowIDCounterBits bits
// of a counter: within one proxy never less than the last id it handed
// out plus one, so ids grow even when the clock steps back, and across
// proxies ordered by time to the millisecond. Each new millisecond starts
// the counter at a random point of its lower half, so two proxies
// inserting in the same millisecond rarely draw the same id; when they
// do, the write's not-exists condition fails and the statement draws new
// ids (executor), as it did when ids were random.
const (
	rowIDCounterBits = 22
	rowIDEpoch       = 1577836800000 // 2020-01-01 UTC, in Unix milliseconds
)

var lastRowID atomic.Int64

// NextRowID returns a new row id (see above): positive, and greater than
// every id this process handed out before.
func NextRowID() int64 {
	now := (time.Now().UnixMilli() - rowIDEpoch) << rowIDCounterBits
	for {
		last := lastRowID.Load()
		next := last + 1
		if now > last {
			next = now | rand.Int64N(1<<(rowIDCounterBits-1))
		}
		if lastRowID.CompareAndSwap(last, next) {
			return next
		}
	}
}
