package pebble

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/kv"
)

// Serializable transactions (kv.TxnOptions.Serializable).
//
// Snapshot isolation lets two transactions each read what the other writes
// and both commit (write skew). A serializable transaction therefore keeps
// what it read, its read set: the keys of its Gets and, for each scan, the
// span from the scan's start to the last key it read, or to the scan's end
// once it ran out (so a key inserted later inside a range it scanned, a
// phantom, falls in it). Its commit fails with a *kv.ConflictError
// (ReadWrite) if a commit numbered after its snapshot (startSeq) wrote a
// key inside its read set: backward validation. A committed serializable
// transaction's reads are then what they would have been at its commit,
// so the serializable transactions are equivalent to running one at a
// time in commit order. Serializable commits take serialMu from their
// validation until their writes are applied and recorded, so that order is
// total: no other serializable commit is validated between one's check and
// its record. (Transactions of other levels and plain writes do not take
// it: as in PostgreSQL, the guarantee is among serializable transactions.)
//
// A transaction that commits no write and no lock is not validated (kvtxn
// does not call the backend's commit): it read one snapshot, which holds a
// prefix of that commit order, since a serializable commit is applied
// before the next one is validated. So it read the state between two
// serializable transactions, and is equivalent to running there. A
// read-only transaction (kv.TxnOptions.ReadOnly) keeps no read set at all.
//
// What was written since a snapshot is the commit log: while a
// serializable transaction is live, every commit that records its keys for
// first-committer-wins (txn.go) also appends them, with its sequence
// number, to serialLog. The log is bounded (serialLogMax bytes): past it,
// the oldest records go, and a transaction whose snapshot is older than
// what the log still holds (startSeq < floor) fails its commit with a
// *kv.ConflictError rather than pass unchecked. Records no live
// transaction can need are dropped first, and the whole log when the last
// serializable transaction ends.

// defaultSerialLogMax bounds the commit log's keys, in bytes.
const defaultSerialLogMax = 64 << 20

// logRecordOverhead is what a logged key costs besides its bytes (its
// string header, the record's share), for the log's bound.
const logRecordOverhead = 24

// commitLog is the keys of recent commits, for validating serializable
// transactions. Its fields are guarded by txnMu.
type commitLog struct {
	recs  []logRecord // by increasing seq
	bytes int64
	// floor: every commit numbered above it that a live serializable
	// transaction may need is in recs.
	floor uint64
}

// logRecord is one commit's keys.
type logRecord struct {
	seq  uint64
	keys []string // Pebble keys
}

// reset empties the log: no commit numbered up to seq is needed.
func (l *commitLog) reset(seq uint64) {
	clear(l.recs)
	l.recs, l.bytes, l.floor = l.recs[:0], 0, seq
}

// serialLogLimit is the log's bound in bytes.
func (s *Store) serialLogLimit() int64 {
	if s.serialLogMax > 0 {
		return s.serialLogMax
	}
	return defaultSerialLogMax
}

// logCommit appends the keys the commit numbered s.seq wrote to the log,
// if a serializable transaction is live; keys must not be changed after.
// The caller holds txnMu.
func (s *Store) logCommit(keys []string) {
	if s.liveSerial == 0 || len(keys) == 0 {
		return
	}
	l := &s.serialLog
	l.recs = append(l.recs, logRecord{seq: s.seq, keys: keys})
	for _, k := range keys {
		l.bytes += int64(len(k)) + logRecordOverhead
	}
	if l.bytes <= s.serialLogLimit() {
		return
	}
	// First what no live transaction began before; then the oldest, down
	// to half the bound so that the next commits do not trim again.
	oldest := s.seq
	for start := range s.live {
		oldest = min(oldest, start)
	}
	drop := 0
	for drop < len(l.recs) && (l.recs[drop].seq <= oldest || l.bytes > s.serialLogLimit()/2) {
		for _, k := range l.recs[drop].keys {
			l.bytes -= int64(len(k)) + logRecordOverhead
		}
		l.floor = max(l.floor, l.recs[drop].seq)
		drop++
	}
	n := copy(l.recs, l.recs[drop:])
	clear(l.recs[n:])
	l.recs = l.recs[:n]
}

// validateReads fails a serializable transaction whose read set (merged,
// by spans) holds a key a commit numbered after startSeq wrote. The caller
// holds txnMu.
func (s *Store) validateReads(startSeq uint64, spans readSpans) error {
	l := &s.serialLog
	if startSeq < l.floor {
		return &kv.ConflictError{ReadWrite: true, Reason: "the store no longer holds the record of every commit since this transaction's snapshot"}
	}
	if len(spans) == 0 {
		return nil
	}
	first := sort.Search(len(l.recs), func(i int) bool { return l.recs[i].seq > startSeq })
	for _, r := range l.recs[first:] {
		for _, k := range r.keys {
			if spans.contain(k) {
				return &kv.ConflictError{Key: decodeKey([]byte(k)), ReadWrite: true,
					Reason: "another transaction wrote a key this transaction read after this transaction's snapshot"}
			}
		}
	}
	return nil
}

// readSet is what a serializable transaction read: spans of Pebble keys,
// each half-open [lo, hi). A scan's span grows as its iterator moves
// (iterator.track), so the set is guarded by mu: the iterator and the
// commit may run on different goroutines.
type readSet struct {
	mu    sync.Mutex
	spans []*readSpan
}

// readSpan is one Get's key or one scan's covered span, [lo, hi); empty
// while lo >= hi.
type readSpan struct {
	lo, hi []byte
	// upper is a forward scan's end (its hi once it runs out), lower a
	// reverse scan's start.
	lower, upper []byte
	buf          []byte // the moving bound's memory
}

// addKeys records point reads.
func (r *readSet) addKeys(keys []kv.Key) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range keys {
		hi := append(appendKey(nil, k), 0) // the key's immediate successor
		r.spans = append(r.spans, &readSpan{lo: hi[:len(hi)-1], hi: hi})
	}
}

// addSpan records a span read whole.
func (r *readSet) addSpan(lo, hi []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.spans = append(r.spans, &readSpan{lo: slices.Clone(lo), hi: slices.Clone(hi)})
}

// scan records a scan of [lower, upper) that has read nothing yet: the
// iterator moves its span's bound as it reads (reached, ranOut).
func (r *readSet) scan(lower, upper []byte, reverse bool) *readSpan {
	sp := &readSpan{lower: slices.Clone(lower), upper: slices.Clone(upper)}
	if reverse {
		sp.lo, sp.hi = sp.upper, sp.upper
	} else {
		sp.lo, sp.hi = sp.lower, sp.lower
	}
	r.mu.Lock()
	r.spans = append(r.spans, sp)
	r.mu.Unlock()
	return sp
}

// reached extends sp over key, which its scan just read.
func (r *readSet) reached(sp *readSpan, key []byte, reverse bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// A scan moves one way (Seek may not go back), so the newest key is
	// the bound; buf is reused for it.
	if reverse {
		if string(key) < string(sp.lo) {
			sp.buf = append(sp.buf[:0], key...)
			sp.lo = sp.buf
		}
		return
	}
	if string(key) >= string(sp.hi) {
		sp.buf = append(append(sp.buf[:0], key...), 0) // key's successor
		sp.hi = sp.buf
	}
}

// ranOut extends sp over the rest of its scan's range.
func (r *readSet) ranOut(sp *readSpan, reverse bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if reverse {
		sp.lo = sp.lower
	} else {
		sp.hi = sp.upper
	}
}

// merged returns the read set as sorted, disjoint spans.
func (r *readSet) merged() readSpans {
	r.mu.Lock()
	out := make(readSpans, 0, len(r.spans))
	for _, sp := range r.spans {
		if string(sp.lo) < string(sp.hi) {
			out = append(out, span{lo: string(sp.lo), hi: string(sp.hi)})
		}
	}
	r.mu.Unlock()
	slices.SortFunc(out, func(a, b span) int { return strings.Compare(a.lo, b.lo) })
	n := 0
	for _, sp := range out {
		if n > 0 && sp.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, sp.hi)
			continue
		}
		out[n] = sp
		n++
	}
	return out[:n]
}

// span is a half-open span of Pebble keys.
type span struct{ lo, hi string }

// readSpans are sorted, disjoint spans.
type readSpans []span

// contain reports whether key lies in one of the spans.
func (rs readSpans) contain(key string) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].lo > key }) - 1
	return i >= 0 && key < rs[i].hi
}
