package cluster

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/zproxy/zproxy/kv"
)

// Locks are PostgreSQL's advisory locks (pg_advisory_lock and friends)
// kept in the store, so they exclude the sessions of every proxy of it.
// Each key held is an item of partition C/zproxy-locks listing its
// holders (process ID, the holding proxy's member ID, mode, count),
// changed only by writes conditioned on the version read, so two proxies
// never both take a key. A holder whose proxy has left the registry (it
// died) holds nothing: the next proxy to write the key drops it, so a
// crashed proxy's locks are free once its registry entry expires.
type Locks struct {
	reg   *Registry
	store kv.Store

	// mine indexes the locks this proxy's sessions hold, so a session's
	// end releases them without reading every key.
	mu   sync.Mutex
	mine map[uint32]map[int64]bool

	liveMu   sync.Mutex
	live     map[string]bool
	liveRead time.Time
}

// Hold is one session's hold of an advisory lock.
type Hold struct {
	Key    int64
	PID    uint32
	Shared bool
}

var locksPartition = []byte("C/zproxy-locks")

const (
	attrVersion = "v"
	attrHolders = "h"
)

// holder is one holder of a key as stored.
type holder struct {
	Member string `json:"m"`
	PID    uint32 `json:"p"`
	Shared bool   `json:"s,omitempty"`
	Count  int    `json:"n"`
}

// NewLocks returns the store's advisory lock table as this proxy sees it.
func NewLocks(reg *Registry) *Locks {
	return &Locks{reg: reg, store: reg.store, mine: map[uint32]map[int64]bool{}}
}

func lockKey(key int64) kv.Key {
	return kv.Key{Partition: locksPartition, Sort: binary.BigEndian.AppendUint64(nil, uint64(key)^1<<63)}
}

// alive reports whether the proxy with member ID id is in the registry
// (read at most once a second).
func (l *Locks) alive(ctx context.Context, id string) (bool, error) {
	if id == l.reg.Self().ID {
		return true, nil
	}
	l.liveMu.Lock()
	defer l.liveMu.Unlock()
	// A holder not seen alive may have joined since: read again, but not
	// more than ten times a second.
	if since := time.Since(l.liveRead); l.live == nil || since > time.Second || !l.live[id] && since > 100*time.Millisecond {
		members, err := l.reg.Members(ctx)
		if err != nil {
			return false, err
		}
		l.live = map[string]bool{}
		for _, m := range members {
			l.live[m.ID] = true
		}
		l.liveRead = time.Now()
	}
	return l.live[id], nil
}

// read returns a key's live holders and the version to condition a write on
// (0: no item).
func (l *Locks) read(ctx context.Context, key int64) ([]holder, int64, error) {
	items, err := l.store.Get(ctx, kv.GetRequest{Keys: []kv.Key{lockKey(key)}, Consistent: true})
	if err != nil {
		return nil, 0, err
	}
	if !kv.Found(items[0]) {
		return nil, 0, nil
	}
	var hs []holder
	if err := json.Unmarshal([]byte(kv.Lookup(items[0].Attrs, attrHolders).S), &hs); err != nil {
		return nil, 0, err
	}
	live := hs[:0]
	for _, h := range hs {
		ok, err := l.alive(ctx, h.Member)
		if err != nil {
			return nil, 0, err
		}
		if ok {
			live = append(live, h)
		}
	}
	return live, kv.Lookup(items[0].Attrs, attrVersion).I, nil
}

// write replaces a key's holders if its version is still version.
func (l *Locks) write(ctx context.Context, key int64, hs []holder, version int64) (bool, error) {
	op := kv.Op{Kind: kv.OpDelete, Key: lockKey(key)}
	if len(hs) > 0 {
		b, _ := json.Marshal(hs)
		op = kv.Op{Kind: kv.OpPut, Key: lockKey(key), Attrs: []kv.Attr{
			{Name: attrVersion, Kind: kv.AttrInt, I: version + 1}, {Name: attrHolders, Kind: kv.AttrString, S: string(b)}}}
	}
	if version == 0 {
		if op.Kind == kv.OpDelete {
			return true, nil
		}
		op.Cond = kv.CondNotExists
	} else {
		op.Cond, op.CondAttr = kv.CondAttrEquals, kv.Attr{Name: attrVersion, Kind: kv.AttrInt, I: version}
	}
	err := l.store.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{op}})
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) {
		return false, nil // changed meanwhile: read again
	}
	return err == nil, err
}

// TryLock takes key for session pid in the mode asked if no other
// session holds it in a conflicting one (re-entrant, as PostgreSQL's).
func (l *Locks) TryLock(ctx context.Context, pid uint32, key int64, shared bool) (bool, error) {
	self := l.reg.Self().ID
	for {
		hs, version, err := l.read(ctx, key)
		if err != nil {
			return false, err
		}
		mine := -1
		for i, h := range hs {
			if h.PID == pid && h.Member == self && h.Shared == shared {
				mine = i
				continue
			}
			if h.PID != pid && (!h.Shared || !shared) {
				return false, nil
			}
		}
		if mine >= 0 {
			hs[mine].Count++
		} else {
			hs = append(hs, holder{Member: self, PID: pid, Shared: shared, Count: 1})
		}
		ok, err := l.write(ctx, key, hs, version)
		if err != nil {
			return false, err
		}
		if ok {
			l.mu.Lock()
			if l.mine[pid] == nil {
				l.mine[pid] = map[int64]bool{}
			}
			l.mine[pid][key] = true
			l.mu.Unlock()
			return true, nil
		}
		if err := ctx.Err(); err != nil {
			return false, err
		}
	}
}

// Lock waits until key can be taken (or ctx ends), polling with a backoff
// of up to half a second: a release on another proxy wakes no one here.
func (l *Locks) Lock(ctx context.Context, pid uint32, key int64, shared bool) error {
	wait := 10 * time.Millisecond
	for {
		ok, err := l.TryLock(ctx, pid, key, shared)
		if err != nil || ok {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return context.Cause(ctx)
		case <-t.C:
		}
		wait = min(wait*2, 500*time.Millisecond)
	}
}

// Unlock releases one hold of key by session pid; false if it held none.
func (l *Locks) Unlock(ctx context.Context, pid uint32, key int64, shared bool) (bool, error) {
	self := l.reg.Self().ID
	for {
		hs, version, err := l.read(ctx, key)
		if err != nil {
			return false, err
		}
		i := -1
		for j, h := range hs {
			if h.PID == pid && h.Member == self && h.Shared == shared {
				i = j
			}
		}
		if i < 0 {
			return false, nil
		}
		if hs[i].Count--; hs[i].Count == 0 {
			hs = append(hs[:i], hs[i+1:]...)
		}
		ok, err := l.write(ctx, key, hs, version)
		if err != nil {
			return false, err
		}
		if ok {
			l.forget(pid, key, hs)
			return true, nil
		}
	}
}

// forget drops key from pid's index once pid holds it in no mode.
func (l *Locks) forget(pid uint32, key int64, hs []holder) {
	for _, h := range hs {
		if h.PID == pid {
			return
		}
	}
	l.mu.Lock()
	delete(l.mine[pid], key)
	if len(l.mine[pid]) == 0 {
		delete(l.mine, pid)
	}
	l.mu.Unlock()
}

// UnlockAll releases every lock session pid holds
// (pg_advisory_unlock_all, and the end of the session).
func (l *Locks) UnlockAll(ctx context.Context, pid uint32) error {
	l.mu.Lock()
	var keys []int64
	for k := range l.mine[pid] {
		keys = append(keys, k)
	}
	l.mu.Unlock()
	self := l.reg.Self().ID
	for _, key := range keys {
		for {
			hs, version, err := l.read(ctx, key)
			if err != nil {
				return err
			}
			kept := hs[:0]
			for _, h := range hs {
				if h.PID != pid || h.Member != self {
					kept = append(kept, h)
				}
			}
			ok, err := l.write(ctx, key, kept, version)
			if err != nil {
				return err
			}
			if ok {
				break
			}
		}
	}
	l.mu.Lock()
	delete(l.mine, pid)
	l.mu.Unlock()
	return nil
}

// Held lists every live hold of every proxy (pg_locks).
func (l *Locks) Held(ctx context.Context) ([]Hold, error) {
	it := l.store.Scan(ctx, kv.ScanRequest{Partition: locksPartition, Consistent: true})
	defer it.Close()
	var out []Hold
	for it.Next() {
		item := it.Item()
		if len(item.Key.Sort) != 8 {
			continue
		}
		key := int64(binary.BigEndian.Uint64(item.Key.Sort) ^ 1<<63)
		var hs []holder
		if json.Unmarshal([]byte(kv.Lookup(item.Attrs, attrHolders).S), &hs) != nil {
			continue
		}
		for _, h := range hs {
			if ok, err := l.alive(ctx, h.Member); err != nil {
				return nil, err
			} else if ok {
				out = append(out, Hold{Key: key, PID: h.PID, Shared: h.Shared})
			}
		}
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Key != out[j].Key {
			return out[i].Key < out[j].Key
		}
		return out[i].PID < out[j].PID
	})
	return out, nil
}
