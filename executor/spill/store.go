// Package spill is the executor's temporary on-disk store, for the rows
// that do not fit in a statement's work_mem: sorted runs of an external
// sort, hash partitions of an aggregation or a hash join, window stages.
// As PostgreSQL's temporary files (BufFile), each run is a plain file,
// written once through a small buffer and read back sequentially: what a
// run costs in memory is its buffers (bufBytes), whatever its size, and
// its disk space comes back the moment it is released. The files live in
// one directory per executor under a root (os.TempDir by default), named
// zproxy-spill-<pid>-<n>, created on first use and removed by Close.
// Sweep removes the directories of processes that are gone.
//
// What is stored is runs (Run): rows written once, in order, then read
// back in that order as often as needed, and released. Every run charges a
// statement's Quota, which PostgreSQL's temp_file_limit bounds (53400);
// closing the Quota at the statement's end, however it ends, removes the
// runs its operators did not release.
package spill

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

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
	dir  string
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

// Open creates the store's directory if it does not exist yet and returns
// it. Besides the executor's runs, it holds the proxy's store of temporary
// tables (package session), which Sweep then removes after a crash too.
func (s *Store) Open() (string, error) { return s.open() }

func (s *Store) open() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir != "" {
		return s.dir, nil
	}
	dir := filepath.Join(s.root, fmt.Sprintf("%s%d-%d", dirPrefix, os.Getpid(), instances.Add(1)))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", pgerr.New(pgerr.IOError, "could not create the spill store in %s: %v", s.root, err)
	}
	s.dir = dir
	return dir, nil
}

// Close removes the store's directory.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == "" {
		return nil
	}
	err := os.RemoveAll(s.dir)
	s.dir = ""
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

// Quota is one statement's use of the spill store, bounded by
// temp_file_limit.
type Quota struct {
	// Limit is the most bytes the statement may hold on disk at once; a
	// negative limit is none.
	Limit int64
	used  atomic.Int64
	// Peak is the most it held.
	peak atomic.Int64
	// live are the statement's runs not yet released, which Close
	// removes.
	mu   sync.Mutex
	live map[*Run]struct{}
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

func (q *Quota) track(r *Run) {
	q.mu.Lock()
	if q.live == nil {
		q.live = map[*Run]struct{}{}
	}
	q.live[r] = struct{}{}
	q.mu.Unlock()
}

func (q *Quota) untrack(r *Run) {
	q.mu.Lock()
	delete(q.live, r)
	q.mu.Unlock()
}

// Close releases the runs the statement still holds. It is called when
// the statement ends (it finished, failed, was cancelled or lost its
// client), so no spill file outlives its statement even when an
// operator's error path left a run behind. A nil Quota holds nothing.
func (q *Quota) Close() {
	if q == nil {
		return
	}
	q.mu.Lock()
	runs := make([]*Run, 0, len(q.live))
	for r := range q.live {
		runs = append(runs, r)
	}
	q.mu.Unlock()
	for _, r := range runs {
		r.release(true)
	}
}

// Live is how many runs the statement holds.
func (q *Quota) Live() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.live)
}

// bufBytes is the buffer of a run being written and of each reader: the
// memory a run costs, whatever its size. PostgreSQL's BufFile uses 8 KB
// blocks; 32 KB keeps the system calls few while a merge of work_mem /
// 32 KB runs (mergeFanIn in the executor) still fits in work_mem.
const bufBytes = 32 << 10

// ReaderBytes is the memory a Reader holds, for callers that bound how
// many they open at once.
const ReaderBytes = bufBytes

// Run is a sequence of rows in the store: a file of length-prefixed rows,
// written once through a buffer, then read sequentially by any number of
// Readers (each with a descriptor of its own, so a sort with many runs
// holds none open but those it merges), and removed by Release or by its
// statement's Quota.Close.
type Run struct {
	q     *Quota
	path  string
	f     *os.File // while written
	w     *bufio.Writer
	n     int64
	size  int64 // bytes in the file
	bytes int64 // bytes charged to the quota
	buf   []byte
	done  bool
	// types are the user-defined range types of the run's rows (Types).
	types Types
	// mu guards what Quota.Close, from another goroutine, may change.
	mu       sync.Mutex
	readers  map[*Reader]struct{}
	released bool
}

// NewRun starts a run charged to q, a file in the store's directory.
func (s *Store) NewRun(q *Quota) (*Run, error) {
	dir, err := s.open()
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "run-")
	if err != nil {
		return nil, pgerr.New(pgerr.IOError, "could not create a spill file in %s: %v", dir, err)
	}
	r := &Run{q: q, f: f, path: f.Name()}
	if q != nil {
		q.track(r)
	}
	return r, nil
}

// Add appends a row.
func (r *Run) Add(row []sqltypes.Value) error {
	if r.done || r.f == nil {
		return pgerr.New(pgerr.InternalError, "spill run written after it was finished")
	}
	if r.w == nil {
		r.w = bufio.NewWriterSize(r.f, bufBytes)
	}
	r.buf = AppendRow(r.buf[:0], row, &r.types)
	var hdr [binary.MaxVarintLen64]byte
	h := binary.PutUvarint(hdr[:], uint64(len(r.buf)))
	size := int64(h + len(r.buf))
	if err := r.q.charge(size); err != nil {
		return err
	}
	r.bytes += size
	if _, err := r.w.Write(hdr[:h]); err != nil {
		return ioError(err)
	}
	if _, err := r.w.Write(r.buf); err != nil {
		return ioError(err)
	}
	r.size += size
	r.n++
	if cap(r.buf) > 4*bufBytes {
		// One huge row does not pin its encoding for the run's life.
		r.buf = nil
	}
	return nil
}

func ioError(err error) error {
	return pgerr.New(pgerr.IOError, "spill store: %v", err)
}

// Finish ends the writing; the run can then be read. The buffer and the
// descriptor go, so a finished run holds no memory but its Readers'.
func (r *Run) Finish() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return nil
	}
	r.done = true
	var err error
	if r.w != nil && r.f != nil {
		err = r.w.Flush()
	}
	if r.f != nil {
		if cerr := r.f.Close(); err == nil {
			err = cerr
		}
	}
	r.w, r.f, r.buf = nil, nil, nil
	if err != nil {
		return ioError(err)
	}
	return nil
}

// Len is the number of rows.
func (r *Run) Len() int64 { return r.n }

// Bytes is the space the run takes.
func (r *Run) Bytes() int64 { return r.bytes }

// Release deletes the run: its file is removed at once (the space comes
// back when its open Readers close).
func (r *Run) Release() { r.release(false) }

// release is Release; force also closes the open Readers (their next read
// fails): the statement is over.
func (r *Run) release(force bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.released {
		return
	}
	r.released = true
	if r.f != nil {
		r.f.Close()
	}
	r.w, r.f, r.buf = nil, nil, nil
	if r.q != nil {
		r.q.untrack(r)
	}
	r.q.release(r.bytes)
	r.bytes = 0
	os.Remove(r.path)
	if force {
		for rd := range r.readers {
			rd.f.Close()
		}
	}
}

// Reader reads a finished run from its first row.
func (r *Run) Reader() (*Reader, error) {
	if err := r.Finish(); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.released {
		return nil, pgerr.New(pgerr.InternalError, "spill run read after it was released")
	}
	f, err := os.Open(r.path)
	if err != nil {
		return nil, ioError(err)
	}
	rd := &Reader{r: r, f: f, br: bufio.NewReaderSize(f, bufBytes)}
	if r.readers == nil {
		r.readers = map[*Reader]struct{}{}
	}
	r.readers[rd] = struct{}{}
	return rd, nil
}

// Reader reads a run's rows in order.
type Reader struct {
	r   *Run
	f   *os.File
	br  *bufio.Reader
	buf []byte
}

// Next returns the next row (ok false at the end); the row is the
// caller's.
func (rd *Reader) Next() ([]sqltypes.Value, bool, error) {
	if rd.br == nil {
		return nil, false, nil
	}
	n, err := binary.ReadUvarint(rd.br)
	if err == io.EOF {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, ioError(err)
	}
	if n > uint64(rd.r.size) {
		return nil, false, ioError(errCorrupt)
	}
	if uint64(cap(rd.buf)) < n {
		rd.buf = make([]byte, n)
	}
	b := rd.buf[:n]
	if _, err := io.ReadFull(rd.br, b); err != nil {
		return nil, false, ioError(err)
	}
	if cap(rd.buf) > 4*bufBytes {
		rd.buf = nil
	}
	row, err := DecodeRow(b, &rd.r.types)
	return row, err == nil, err
}

// Close ends the reading.
func (rd *Reader) Close() {
	if rd.br == nil {
		return
	}
	rd.br, rd.buf = nil, nil
	r := rd.r
	r.mu.Lock()
	delete(r.readers, rd)
	r.mu.Unlock()
	rd.f.Close()
}
