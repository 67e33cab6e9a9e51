package pebble

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/kv"
)

// Condition checks of an atomic batch.
//
// A batch of many conditional puts (a multi-row INSERT, a COPY, ALTER
// TABLE ADD PRIMARY KEY) checks one key per row, nearly always absent. Its
// reads go through one iterator positioned with SeekPrefixGE, which asks
// each sstable's bloom filter first (the whole key is the prefix, see
// comparer), so an absent key costs a memtable seek and a filter probe per
// file instead of a block read per level; db.Get does the same but builds
// an iterator stack of its own for every key (in race-enabled builds Pebble
// also records each sstable iterator's stack for its leak check), which is
// only worth it for a few keys. The keys are sought last op first: Pebble
// turns a prefix seek past the previous one into up to five Next calls
// before it seeks (TrySeekUsingNext), which a bulk load's keys, ascending
// from row to row but far apart, never profit from.

// condIterAfter is how many store reads one commit's conditions make with
// db.Get before they share one iterator instead.
const condIterAfter = 8

// comparer is Pebble's default bytewise comparer, under its name (stores
// written before record it), with Split: an item's whole Pebble key is its
// prefix. That is what the bloom filters hold anyway (Pebble filters whole
// keys when there is no Split), and it lets an iterator's SeekPrefixGE
// consult them.
var comparer = func() *pebble.Comparer {
	c := *pebble.DefaultComparer
	c.Split = func(key []byte) int { return len(key) }
	return &c
}()

// opKeys are the Pebble keys of a batch's ops (or of one chunk of them),
// encoded once into one buffer, and their hashes, which are the write locks
// the commit takes.
type opKeys struct {
	buf   []byte
	ends  []int // ends[i] is where op i's key ends in buf (it starts at ends[i-1])
	locks lockSet
}

// grow makes room for n more keys.
func (k *opKeys) grow(n int) {
	k.buf = slices.Grow(k.buf, n*48) // a row key is about 30 bytes, an index entry's 40-60
	k.ends = slices.Grow(k.ends, n)
	k.locks = slices.Grow(k.locks, n)
}

func (k *opKeys) reset() {
	k.buf, k.ends, k.locks = k.buf[:0], k.ends[:0], k.locks[:0]
}

// add encodes key as the next op's and returns it (valid until the next
// add).
func (k *opKeys) add(s *Store, key kv.Key) []byte {
	start := len(k.buf)
	k.buf = appendKey(k.buf, key)
	k.ends = append(k.ends, len(k.buf))
	enc := k.buf[start:]
	k.locks.add(s.keyHash(enc))
	return enc
}

// key returns op i's encoded key.
func (k *opKeys) key(i int) []byte {
	start := 0
	if i > 0 {
		start = k.ends[i-1]
	}
	return k.buf[start:k.ends[i]]
}

// condState is what a conditional op's condition is checked against: the
// batch's last earlier op on its key, or else the stored item.
type condState struct {
	op     int32 // the conditional op
	prior  int32 // the last earlier op of the batch on the key, or -1
	exists bool  // the stored item exists (prior < 0)
	attrs  []kv.Attr
}

// checkConditions checks the conditions of ops, whose keys ks holds,
// against the store as the ops before each leave it (two puts of one new
// key with CondNotExists: the second fails, as on DynamoDB), and returns a
// *kv.ConditionFailedError naming the first op in batch order whose
// condition fails (its index offset by base). The caller holds the keys'
// locks, so the items read stay as read until the batch commits.
func (s *Store) checkConditions(ks *opKeys, ops []kv.Op, base int) error {
	states := priorOps(ks, ops)
	if err := s.readConditionItems(ks, ops, states); err != nil {
		return err
	}
	for _, st := range states {
		op := &ops[st.op]
		exists, attrs := st.exists, st.attrs
		if st.prior >= 0 {
			prior := &ops[st.prior]
			exists, attrs = prior.Kind == kv.OpPut, prior.Attrs
		}
		var holds bool
		switch op.Cond {
		case kv.CondExists:
			holds = exists
		case kv.CondNotExists:
			holds = !exists
		case kv.CondAttrEquals:
			holds = exists && kv.SameValue(kv.Lookup(attrs, op.CondAttr.Name), op.CondAttr)
		default:
			holds = true
		}
		if !holds {
			return &kv.ConditionFailedError{Index: base + int(st.op), Key: op.Key}
		}
	}
	return nil
}

// priorOps lists the conditional ops in batch order, each with the last
// earlier op of the batch on its key. Ops are matched by their key's hash
// (the lock hash, already computed), confirmed on the bytes; two keys
// sharing a hash fall back to a backward search.
func priorOps(ks *opKeys, ops []kv.Op) []condState {
	var states []condState
	last := make(map[uint64]int32, len(ops))
	for i := range ops {
		h := ks.locks[i]
		if ops[i].Cond != kv.CondNone {
			prior := int32(-1)
			if j, ok := last[h]; ok {
				key := ks.key(i)
				for ; j >= 0 && !bytes.Equal(ks.key(int(j)), key); j-- {
				}
				prior = j
			}
			states = append(states, condState{op: int32(i), prior: prior})
		}
		last[h] = int32(i)
	}
	return states
}

// readConditionItems reads the stored items of the conditions that no
// earlier op of the batch decides.
func (s *Store) readConditionItems(ks *opKeys, ops []kv.Op, states []condState) error {
	var reads []int // indexes into states
	for i := range states {
		if states[i].prior < 0 {
			reads = append(reads, i)
		}
	}
	if len(reads) <= condIterAfter {
		for _, r := range reads {
			st := &states[r]
			v, closer, err := s.db.Get(ks.key(int(st.op)))
			if errors.Is(err, pebble.ErrNotFound) {
				continue
			}
			if err != nil {
				return fmt.Errorf("kv/pebble: condition check: %w", err)
			}
			st.exists = true
			if ops[st.op].Cond == kv.CondAttrEquals {
				st.attrs, err = decodeValue(v)
			}
			closer.Close()
			if err != nil {
				return fmt.Errorf("kv/pebble: condition check: %w", err)
			}
		}
		return nil
	}
	iter, err := s.db.NewIter(&pebble.IterOptions{UseL6Filters: true})
	if err != nil {
		return fmt.Errorf("kv/pebble: condition check: %w", err)
	}
	defer iter.Close()
	for i := len(reads) - 1; i >= 0; i-- {
		st := &states[reads[i]]
		if !iter.SeekPrefixGE(ks.key(int(st.op))) {
			if err := iter.Error(); err != nil {
				return fmt.Errorf("kv/pebble: condition check: %w", err)
			}
			continue
		}
		st.exists = true
		if ops[st.op].Cond == kv.CondAttrEquals {
			v, err := iter.ValueAndErr()
			if err == nil {
				st.attrs, err = decodeValue(v)
			}
			if err != nil {
				return fmt.Errorf("kv/pebble: condition check: %w", err)
			}
		}
	}
	return nil
}
