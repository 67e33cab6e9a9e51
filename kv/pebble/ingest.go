package pebble

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/sstable"
	"golang.org/x/sync/errgroup"
)

// Large atomic writes as ingested sstables. A bulk batch (a COPY's rows
// outside a transaction block) or a large transaction's commit used to go
// to Pebble as one batch: Pebble wrote all of it to the write-ahead log,
// kept it as a flushable batch (sorting it), flushed it into L0 and then
// compacted it down, level by level, so each byte was written three or
// more times. From defaultIngestMinBytes on, commitRepr sorts the entries
// itself, writes them as sstables (one run per partition, so each file
// spans one table's or index's keys) and ingests them with DB.Ingest:
//
//   - Atomic: Pebble applies an ingestion's files as one batch, at one
//     sequence number; a reader sees all of them or none.
//   - Snapshots: entries ingested get a sequence number above every open
//     snapshot's, so the transactions reading one do not see them, as
//     with a batch.
//   - Durable: the files are synced before they are ingested, and the
//     ingestion is logged in the manifest, which Pebble syncs.
//   - Conditions and first-committer-wins are unchanged: the caller has
//     checked them and holds the keys' locks, as for a batch.
//
// A file that overlaps nothing already stored (a new table's or index's
// partition) lands in the bottom level at once: no log, no flush, no
// compaction. One that overlaps stored keys goes as deep as it can and is
// compacted as any other file would be; one that overlaps the memtable
// makes Pebble flush it first (or queue the file behind it).
//
// Crash safety: a file written but not yet ingested is named
// ingestFilePrefix…; Open removes any left behind.

// defaultIngestMinBytes is the size of a batch representation from which
// a bulk batch or a transaction's commit is ingested rather than committed
// as a batch. Below it a batch is cheaper: an ingestion syncs a file per
// partition and the manifest, and flushes an overlapping memtable.
const defaultIngestMinBytes = 16 << 20

// ingestFileMax bounds one ingested file; a partition larger than that
// becomes several files.
const ingestFileMax = 256 << 20

// ingestFilePrefix names the files written for an ingestion in the data
// directory (Pebble ignores names it does not know).
const ingestFilePrefix = "zproxy-ingest-"

// reprEntry is one entry of a batch representation: its key is
// repr[off:off+klen], preceded by its length (kw bytes) and its kind; a
// put's value follows it. abbr, the 16 bytes of the key after its
// partition prefix (zero-padded), decides most comparisons of the sort
// without reading the key, which is a cache miss in a large batch: within
// a partition the keys share their first bytes (an index's leading
// value, a table's first key column), which a comparison of whole keys
// reads every time.
type reprEntry struct {
	abbr [2]uint64
	off  int64
	klen uint32
	kw   uint8
}

func (e *reprEntry) key(repr []byte) []byte { return repr[e.off : e.off+int64(e.klen)] }

func (e *reprEntry) kind(repr []byte) pebble.InternalKeyKind {
	return pebble.InternalKeyKind(repr[e.off-1-int64(e.kw)])
}

// ingesting reports whether a batch representation of n bytes is
// committed by commitRepr's ingestion.
func (s *Store) ingesting(n int) bool {
	return s.ingestMin > 0 && int64(n) >= s.ingestMin
}

// commitRepr commits a batch representation (a 12-byte header, then
// entries), which the caller has checked and whose keys it holds locked:
// as a batch below the ingestion threshold, else by ingestion. With
// record, it gives the keys written the next commit sequence number
// (first-committer-wins, txn.go), as recordBatch does.
func (s *Store) commitRepr(repr []byte, record bool) error {
	if !s.ingesting(len(repr)) {
		batch := s.db.NewBatch()
		defer batch.Close()
		if err := batch.SetRepr(repr); err != nil {
			return fmt.Errorf("kv/pebble: bulk batch: %w", err)
		}
		if err := s.commitBatch(batch, s.sync); err != nil {
			return fmt.Errorf("kv/pebble: commit: %w", err)
		}
		if record {
			s.recordBatch(batch)
		}
		return nil
	}
	runs, err := partitionRuns(repr)
	if err != nil {
		return err
	}
	// Each partition's run is sorted and written on its own, in
	// parallel: the runs span disjoint key ranges, so their files never
	// overlap.
	paths := make([][]string, len(runs))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range runs {
		g.Go(func() error {
			runs[i].sort(repr)
			var err error
			paths[i], err = s.writeIngestFiles(repr, runs[i].entries)
			return err
		})
	}
	err = g.Wait()
	all := slices.Concat(paths...)
	if err != nil {
		s.removeIngestFiles(all)
		return err
	}
	if err := s.ingest(all); err != nil {
		s.removeIngestFiles(all) // Ingest removes them only on success
		return fmt.Errorf("kv/pebble: ingest: %w", err)
	}
	s.ingests.Add(1)
	if record {
		s.txnMu.Lock()
		s.seq++
		var logged []string
		for _, r := range runs {
			for _, e := range r.entries {
				k := string(e.key(repr))
				s.lastWrite[k] = s.seq
				if s.liveSerial > 0 {
					logged = append(logged, k)
				}
			}
		}
		s.logCommit(logged)
		s.maybePrune()
		s.txnMu.Unlock()
	}
	return nil
}

// IngestCount is how many commits the store has applied by ingesting
// sstables (tests and metrics tell the two ways apart by it).
func (s *Store) IngestCount() int64 { return s.ingests.Load() }

// partitionRun is a batch representation's entries of one partition,
// whose prefix is plen bytes long.
type partitionRun struct {
	entries []reprEntry
	plen    int
}

// partitionRuns lists a batch representation's entries in one run per
// partition, the runs in the order the partitions sort and each in batch
// order (for sort).
func partitionRuns(repr []byte) ([]partitionRun, error) {
	var (
		runs  [][]reprEntry
		parts [][]byte // runs[i]'s partition prefix
		index = map[string]int{}
		last  = -1
	)
	for p := 12; p < len(repr); {
		kind := pebble.InternalKeyKind(repr[p])
		l, w := binary.Uvarint(repr[p+1:])
		if w <= 0 || p+1+w+int(l) > len(repr) {
			return nil, fmt.Errorf("kv/pebble: ingest: corrupt batch entry at %d", p)
		}
		e := reprEntry{off: int64(p + 1 + w), klen: uint32(l), kw: uint8(w)}
		key := e.key(repr)
		p += 1 + w + int(l)
		switch kind {
		case pebble.InternalKeyKindSet:
			vl, vw := binary.Uvarint(repr[p:])
			if vw <= 0 || p+vw+int(vl) > len(repr) {
				return nil, fmt.Errorf("kv/pebble: ingest: corrupt batch entry at %d", e.off)
			}
			p += vw + int(vl)
		case pebble.InternalKeyKindDelete:
		default:
			return nil, fmt.Errorf("kv/pebble: ingest: unexpected entry kind %v", kind)
		}
		pn, pw := binary.Uvarint(key)
		plen := min(pw+int(pn), len(key))
		var abbr [16]byte
		copy(abbr[:], key[plen:])
		e.abbr = [2]uint64{binary.BigEndian.Uint64(abbr[:8]), binary.BigEndian.Uint64(abbr[8:])}
		if last < 0 || !bytes.Equal(parts[last], key[:plen]) {
			i, ok := index[string(key[:plen])]
			if !ok {
				i = len(runs)
				index[string(key[:plen])] = i
				runs = append(runs, nil)
				parts = append(parts, key[:plen])
			}
			last = i
		}
		runs[last] = append(runs[last], e)
	}
	out := make([]partitionRun, len(runs))
	for i := range runs {
		out[i] = partitionRun{entries: runs[i], plen: len(parts[i])}
	}
	slices.SortFunc(out, func(a, b partitionRun) int {
		return bytes.Compare(a.entries[0].key(repr)[:a.plen], b.entries[0].key(repr)[:b.plen])
	})
	return out, nil
}

// sort orders the run by key, a key's entries in batch order (their
// offsets), of which the last decides, as in a batch.
func (r *partitionRun) sort(repr []byte) {
	plen := r.plen
	slices.SortFunc(r.entries, func(a, b reprEntry) int {
		if c := cmp.Compare(a.abbr[0], b.abbr[0]); c != 0 {
			return c
		}
		if c := cmp.Compare(a.abbr[1], b.abbr[1]); c != 0 {
			return c
		}
		ka, kb := a.key(repr), b.key(repr)
		if c := bytes.Compare(ka[plen:], kb[plen:]); c != 0 {
			return c
		}
		return int(a.off - b.off)
	})
}

// writeIngestFiles writes the sorted entries (the last of equal keys
// counting) as synced sstables, a new one at each partition and every
// ingestFileMax bytes, and returns their paths.
func (s *Store) writeIngestFiles(repr []byte, entries []reprEntry) (paths []string, err error) {
	format := s.db.FormatMajorVersion().MaxTableFormat()
	wopts := s.popts.MakeWriterOptions(6, format)
	var w *sstable.Writer
	var part []byte // the partition prefix of w's keys
	finish := func() error {
		if w == nil {
			return nil
		}
		err := w.Close() // syncs and closes the file
		w = nil
		return err
	}
	defer func() {
		if w != nil {
			_ = w.Close()
		}
	}()
	for i, e := range entries {
		key := e.key(repr)
		if i+1 < len(entries) {
			// Keys of different abbreviations or lengths differ; only
			// equal ones need reading.
			if next := &entries[i+1]; next.abbr == e.abbr && next.klen == e.klen && bytes.Equal(key, next.key(repr)) {
				continue // a later entry of the key decides
			}
		}
		if w != nil && (!bytes.HasPrefix(key, part) || w.EstimatedSize() >= ingestFileMax) {
			if err := finish(); err != nil {
				return paths, fmt.Errorf("kv/pebble: ingest: %w", err)
			}
		}
		if w == nil {
			path := s.fs.PathJoin(s.dir, fmt.Sprintf("%s%d.sst", ingestFilePrefix, s.ingestFiles.Add(1)))
			f, err := s.fs.Create(path)
			if err != nil {
				return paths, fmt.Errorf("kv/pebble: ingest: %w", err)
			}
			paths = append(paths, path)
			w = sstable.NewWriter(objstorageprovider.NewFileWritable(f), wopts)
			n, pw := binary.Uvarint(key)
			part = key[:pw+int(n)]
		}
		switch e.kind(repr) {
		case pebble.InternalKeyKindSet:
			p := e.off + int64(e.klen)
			vl, vw := binary.Uvarint(repr[p:])
			err = w.Set(key, repr[p+int64(vw):p+int64(vw)+int64(vl)])
		default:
			err = w.Delete(key)
		}
		if err != nil {
			return paths, fmt.Errorf("kv/pebble: ingest: %w", err)
		}
	}
	if err := finish(); err != nil {
		return paths, fmt.Errorf("kv/pebble: ingest: %w", err)
	}
	return paths, nil
}

// removeIngestFiles removes files an ingestion did not take.
func (s *Store) removeIngestFiles(paths []string) {
	for _, p := range paths {
		_ = s.fs.Remove(p)
	}
}

// removeStaleIngestFiles removes the files of ingestions a crash
// interrupted (Open).
func removeStaleIngestFiles(fs interface {
	List(string) ([]string, error)
	Remove(string) error
	PathJoin(...string) string
}, dir string) {
	names, err := fs.List(dir)
	if err != nil {
		return
	}
	for _, n := range names {
		if strings.HasPrefix(n, ingestFilePrefix) {
			_ = fs.Remove(fs.PathJoin(dir, n))
		}
	}
}
