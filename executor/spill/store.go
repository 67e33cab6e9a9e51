// Package spill is the executor's temporary on-disk store, for the rows
// that do not fit in a statement's work_mem: sorted runs of an external
// sort, hash partitions of an aggregation or a hash join, window stages.
// As in CockroachDB, it is a throwaway Pebble instance: one per executor,
// in a directory under a root (os.TempDir by default) named
// zproxy-spill-<pid>-<n>, opened on first use, written without a log or
// syncs (its content is worthless after a crash), and removed by Close.
// Sweep removes the directories of processes that are gone.
//
// What is stored is runs (Run): rows written once, in order, then read
// back in that order as often as needed, and released. Every run charges a
// statement's Quota, which PostgreSQL's temp_file_limit bounds (53400).
package spill

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// dirPrefix names the directories of spill stores.
const dirPrefix = "zproxy-spill-"

var instances atomic.Int64

// Store is an executor's spill store.
type Store struct {
	root string
	mu   sync.Mutex
	db   *pebble.DB
	dir  string
	runs atomic.Uint64
}

// New returns a store under root ("" is os.TempDir()); nothing is created
// until a run is written.
func New(root string) *Store {
	if root == "" {
		root = os.TempDir()
	}
	return &Store{root: root}
}

// Dir is the store's directory, "" until it is opened.
func (s *Store) Dir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dir
}

func (s *Store) open() (*pebble.DB, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db != nil {
		return s.db, nil
	}
	dir := filepath.Join(s.root, fmt.Sprintf("%s%d-%d", dirPrefix, os.Getpid(), instances.Add(1)))
	db, err := pebble.Open(dir, &pebble.Options{DisableWAL: true, MemTableSize: 8 << 20, Logger: quiet{}})
	if err != nil {
		os.RemoveAll(dir)
		return nil, pgerr.New(pgerr.IOError, "could not create the spill store in %s: %v", s.root, err)
	}
	s.db, s.dir = db, dir
	return db, nil
}

// Close removes the store's directory.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == nil {
		return nil
	}
	err := s.db.Close()
	if rerr := os.RemoveAll(s.dir); err == nil {
		err = rerr
	}
	s.db, s.dir = nil, ""
	return err
}

// Sweep removes the spill directories under root ("" is os.TempDir())
// that processes no longer running left behind, and returns how many.
func Sweep(root string) int {
	if root == "" {
		root = os.TempDir()
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, dirPrefix) {
			continue
		}
		pid, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(name, dirPrefix), "-", 2)[0])
		if err != nil || alive(pid) {
			continue
		}
		if os.RemoveAll(filepath.Join(root, name)) == nil {
			n++
		}
	}
	return n
}

// alive reports whether a process with this id runs.
func alive(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || err == syscall.EPERM
}

type quiet struct{}

func (quiet) Infof(string, ...interface{})  {}
func (quiet) Errorf(string, ...interface{}) {}
func (quiet) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf(format, args...))
}

// Quota is one statement's use of the spill store, bounded by
// temp_file_limit.
type Quota struct {
	// Limit is the most bytes the statement may hold on disk at once; a
	// negative limit is none.
	Limit int64
	used  atomic.Int64
	// Peak is the most it held.
	peak atomic.Int64
}

func (q *Quota) charge(n int64) error {
	if q == nil {
		return nil
	}
	used := q.used.Add(n)
	for {
		p := q.peak.Load()
		if used <= p || q.peak.CompareAndSwap(p, used) {
			break
		}
	}
	if q.Limit >= 0 && used > q.Limit {
		return pgerr.New(pgerr.ConfigurationLimitExceeded, "temporary file size exceeds temp_file_limit (%dkB)", q.Limit>>10)
	}
	return nil
}

func (q *Quota) release(n int64) {
	if q != nil {
		q.used.Add(-n)
	}
}

// Used is how many bytes the statement holds on disk now.
func (q *Quota) Used() int64 { return q.used.Load() }

// Peak is the most the statement held on disk.
func (q *Quota) Peak() int64 { return q.peak.Load() }

// batchBytes is how much a run buffers before it writes.
const batchBytes = 1 << 20

// Run is a sequence of rows in the store.
type Run struct {
	s     *Store
	q     *Quota
	db    *pebble.DB
	id    uint64
	n     int64
	bytes int64
	batch *pebble.Batch
	buf   []byte
	key   []byte
	done  bool
}

// NewRun starts a run charged to q.
func (s *Store) NewRun(q *Quota) (*Run, error) {
	db, err := s.open()
	if err != nil {
		return nil, err
	}
	return &Run{s: s, q: q, db: db, id: s.runs.Add(1), batch: db.NewBatch()}, nil
}

func (r *Run) keyOf(seq uint64) []byte {
	r.key = binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(r.key[:0], r.id), seq)
	return r.key
}

// Add appends a row.
func (r *Run) Add(row []sqltypes.Value) error {
	if r.done {
		return pgerr.New(pgerr.InternalError, "spill run written after it was finished")
	}
	r.buf = AppendRow(r.buf[:0], row)
	size := int64(len(r.buf) + 16)
	if err := r.q.charge(size); err != nil {
		return err
	}
	r.bytes += size
	if err := r.batch.Set(r.keyOf(uint64(r.n)), r.buf, nil); err != nil {
		return err
	}
	r.n++
	if r.batch.Len() >= batchBytes {
		return r.flush()
	}
	return nil
}

func (r *Run) flush() error {
	if r.batch.Empty() {
		return nil
	}
	if err := r.batch.Commit(pebble.NoSync); err != nil {
		return pgerr.New(pgerr.IOError, "spill store: %v", err)
	}
	r.batch.Reset()
	return nil
}

// Finish ends the writing; the run can then be read.
func (r *Run) Finish() error {
	if r.done {
		return nil
	}
	r.done = true
	err := r.flush()
	r.batch.Close()
	r.batch = nil
	return err
}

// Len is the number of rows.
func (r *Run) Len() int64 { return r.n }

// Bytes is the space the run takes (approximately).
func (r *Run) Bytes() int64 { return r.bytes }

// Release deletes the run.
func (r *Run) Release() {
	if r.batch != nil {
		r.batch.Close()
		r.batch = nil
	}
	lo := binary.BigEndian.AppendUint64(nil, r.id)
	hi := binary.BigEndian.AppendUint64(nil, r.id+1)
	r.db.DeleteRange(lo, hi, pebble.NoSync)
	r.q.release(r.bytes)
	r.bytes = 0
}

// Reader reads a finished run from its first row.
func (r *Run) Reader() (*Reader, error) {
	if err := r.Finish(); err != nil {
		return nil, err
	}
	it, err := r.db.NewIter(&pebble.IterOptions{
		LowerBound: binary.BigEndian.AppendUint64(nil, r.id),
		UpperBound: binary.BigEndian.AppendUint64(nil, r.id+1),
	})
	if err != nil {
		return nil, pgerr.New(pgerr.IOError, "spill store: %v", err)
	}
	return &Reader{it: it}, nil
}

// Reader reads a run's rows in order.
type Reader struct {
	it      *pebble.Iterator
	started bool
}

// Next returns the next row (ok false at the end); the row is the
// caller's.
func (rd *Reader) Next() ([]sqltypes.Value, bool, error) {
	var ok bool
	if !rd.started {
		rd.started, ok = true, rd.it.First()
	} else {
		ok = rd.it.Next()
	}
	if !ok {
		if err := rd.it.Error(); err != nil {
			return nil, false, pgerr.New(pgerr.IOError, "spill store: %v", err)
		}
		return nil, false, nil
	}
	row, err := DecodeRow(rd.it.Value())
	return row, err == nil, err
}

// Close ends the reading.
func (rd *Reader) Close() { rd.it.Close() }
