package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zproxy/zproxy/kv"
)

// Process IDs: a proxy in a registry gives its sessions process IDs whose
// bits from SlotShift up are its slot, so the owner of a session is known
// from the ID alone. Slots run from 1 to MaxSlot, which keeps every ID
// below 2^31 (a PostgreSQL process ID is an int4).
const (
	SlotShift = 20
	MaxSlot   = 1<<(31-SlotShift) - 1
)

// SlotOf returns the slot of the proxy that gave out process ID pid (0 for
// a proxy that is in no registry).
func SlotOf(pid uint32) int { return int(pid >> SlotShift) }

// DefaultTTL is how long a member's entry lives without a heartbeat.
const DefaultTTL = 15 * time.Second

// Member is one proxy of the registry.
type Member struct {
	Slot int
	// ID is chosen at random when the proxy joins: a slot a new proxy
	// took over from a dead one has a new ID.
	ID string
	// Addr is where other proxies reach its SQL listener (host:port).
	Addr      string
	Started   time.Time
	Heartbeat time.Time
}

// The registry's items live in one partition of the store.
var partition = []byte("C/zproxy-cluster")

const (
	memberPrefix = "m/"
	secretSort   = "secret"

	attrID      = "id"
	attrAddr    = "addr"
	attrStarted = "started"
	attrBeat    = "beat"
	attrSecret  = "key"
)

func memberKey(slot int) kv.Key {
	return kv.Key{Partition: partition, Sort: fmt.Appendf(nil, "%s%04d", memberPrefix, slot)}
}

// Options configure Join.
type Options struct {
	// Addr is the address other proxies reach this one's SQL listener at
	// (--advertise-addr).
	Addr string
	// TTL is how long an entry lives without a heartbeat (DefaultTTL if 0).
	TTL    time.Duration
	Logger *slog.Logger
	// Now is the clock (time.Now if nil); tests move it.
	Now func() time.Time
}

// Registry is this proxy's membership of the store's registry: its own
// entry, kept alive until Leave, and the lookups of the others.
type Registry struct {
	store  kv.Store
	opts   Options
	self   Member
	secret []byte

	stop chan struct{}
	done chan struct{}

	mu   sync.Mutex
	lost bool // the slot was taken over while this proxy stalled
}

// Join reads (or creates) the cluster's secret, claims the lowest free
// slot and starts the heartbeat.
func Join(ctx context.Context, store kv.Store, opts Options) (*Registry, error) {
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, err
	}
	r := &Registry{store: store, opts: opts, stop: make(chan struct{}), done: make(chan struct{})}
	r.self = Member{ID: hex.EncodeToString(id[:]), Addr: opts.Addr, Started: opts.Now()}
	secret, err := loadSecret(ctx, store)
	if err != nil {
		return nil, fmt.Errorf("cluster: reading the peer secret: %w", err)
	}
	r.secret = secret
	if err := r.claim(ctx); err != nil {
		return nil, err
	}
	go r.heartbeat()
	return r, nil
}

// loadSecret returns the cluster's shared secret, creating it if this is
// the first proxy (two first proxies race on a not-exists write; the loser
// reads the winner's).
func loadSecret(ctx context.Context, store kv.Store) ([]byte, error) {
	key := kv.Key{Partition: partition, Sort: []byte(secretSort)}
	for attempt := 0; attempt < 3; attempt++ {
		items, err := store.Get(ctx, kv.GetRequest{Keys: []kv.Key{key}, Consistent: true})
		if err != nil {
			return nil, err
		}
		if kv.Found(items[0]) {
			if a := kv.Lookup(items[0].Attrs, attrSecret); a.Kind == kv.AttrBytes && len(a.B) >= 32 {
				return append([]byte(nil), a.B...), nil
			}
			return nil, errors.New("the stored secret is malformed")
		}
		secret := make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
		err = store.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Key: key, Cond: kv.CondNotExists,
			Attrs: []kv.Attr{{Name: attrSecret, Kind: kv.AttrBytes, B: secret}}}}})
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) {
			continue // another proxy made it first: read theirs
		}
		if err != nil {
			return nil, err
		}
		return secret, nil
	}
	return nil, errors.New("the secret could not be created")
}

// claim takes the lowest slot that is free or whose owner is dead, with a
// write conditioned on what was read, so two joining proxies never share
// a slot.
func (r *Registry) claim(ctx context.Context) error {
	for attempt := 0; attempt < 10; attempt++ {
		all, err := r.scan(ctx)
		if err != nil {
			return fmt.Errorf("cluster: reading the registry: %w", err)
		}
		taken := map[int]Member{}
		for _, m := range all {
			taken[m.Slot] = m
		}
		now := r.opts.Now()
		for slot := 1; slot <= MaxSlot; slot++ {
			old, used := taken[slot]
			if used && r.alive(old, now) {
				continue
			}
			r.self.Slot, r.self.Heartbeat = slot, now
			op := kv.Op{Kind: kv.OpPut, Key: memberKey(slot), Attrs: r.attrs(), Cond: kv.CondNotExists}
			if used {
				// A dead entry: replace exactly the one read.
				op.Cond, op.CondAttr = kv.CondAttrEquals, kv.Attr{Name: attrBeat, Kind: kv.AttrInt, I: old.Heartbeat.UnixMilli()}
			}
			err := r.store.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{op}})
			var cf *kv.ConditionFailedError
			if errors.As(err, &cf) {
				break // another proxy moved first: read again
			}
			if err != nil {
				return fmt.Errorf("cluster: claiming slot %d: %w", slot, err)
			}
			r.opts.Logger.Info("joined the proxy registry", "slot", slot, "id", r.self.ID, "addr", r.self.Addr)
			return nil
		}
	}
	return errors.New("cluster: no free slot in the proxy registry")
}

func (r *Registry) attrs() []kv.Attr {
	return []kv.Attr{
		{Name: attrID, Kind: kv.AttrString, S: r.self.ID},
		{Name: attrAddr, Kind: kv.AttrString, S: r.self.Addr},
		{Name: attrStarted, Kind: kv.AttrInt, I: r.self.Started.UnixMilli()},
		{Name: attrBeat, Kind: kv.AttrInt, I: r.self.Heartbeat.UnixMilli()},
	}
}

func (r *Registry) alive(m Member, now time.Time) bool {
	return now.Sub(m.Heartbeat) < r.opts.TTL
}

// heartbeat renews the entry every TTL/3 until Leave.
func (r *Registry) heartbeat() {
	defer close(r.done)
	t := time.NewTicker(r.opts.TTL / 3)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), r.opts.TTL/3)
		err := r.Beat(ctx)
		cancel()
		if err != nil {
			r.opts.Logger.Warn("proxy registry heartbeat failed", "slot", r.self.Slot, "err", err)
		}
	}
}

// ErrSlotLost is Beat's error once another proxy has taken this proxy's
// slot (this one stalled for longer than the TTL): peers no longer reach
// this proxy's sessions, which a restart mends.
var ErrSlotLost = errors.New("cluster: this proxy's registry slot was taken over by another proxy")

// Beat renews this proxy's entry now, if it still owns its slot.
func (r *Registry) Beat(ctx context.Context) error {
	r.mu.Lock()
	if r.lost {
		r.mu.Unlock()
		return ErrSlotLost
	}
	r.self.Heartbeat = r.opts.Now()
	attrs := r.attrs()
	r.mu.Unlock()
	err := r.store.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Key: memberKey(r.self.Slot), Attrs: attrs,
		Cond: kv.CondAttrEquals, CondAttr: kv.Attr{Name: attrID, Kind: kv.AttrString, S: r.self.ID}}}})
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) {
		r.mu.Lock()
		r.lost = true
		r.mu.Unlock()
		return ErrSlotLost
	}
	return err
}

// Leave stops the heartbeat and removes this proxy's entry (if it is still
// its own).
func (r *Registry) Leave(ctx context.Context) error {
	select {
	case <-r.stop:
		return nil
	default:
		close(r.stop)
	}
	<-r.done
	err := r.store.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpDelete, Key: memberKey(r.self.Slot),
		Cond: kv.CondAttrEquals, CondAttr: kv.Attr{Name: attrID, Kind: kv.AttrString, S: r.self.ID}}}})
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) {
		return nil // taken over already
	}
	return err
}

// Self is this proxy's entry.
func (r *Registry) Self() Member {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.self
}

// Members lists the live proxies, this one included, by slot.
func (r *Registry) Members(ctx context.Context) ([]Member, error) {
	all, err := r.scan(ctx)
	if err != nil {
		return nil, err
	}
	now := r.opts.Now()
	live := all[:0]
	for _, m := range all {
		if r.alive(m, now) {
			live = append(live, m)
		}
	}
	return live, nil
}

// Member returns the live proxy of a slot.
func (r *Registry) Member(ctx context.Context, slot int) (Member, bool, error) {
	if slot < 1 || slot > MaxSlot {
		return Member{}, false, nil
	}
	items, err := r.store.Get(ctx, kv.GetRequest{Keys: []kv.Key{memberKey(slot)}, Consistent: true})
	if err != nil {
		return Member{}, false, err
	}
	if !kv.Found(items[0]) {
		return Member{}, false, nil
	}
	m := decodeMember(slot, items[0].Attrs)
	return m, r.alive(m, r.opts.Now()), nil
}

// scan reads every entry, live or dead.
func (r *Registry) scan(ctx context.Context) ([]Member, error) {
	it := r.store.Scan(ctx, kv.ScanRequest{Partition: partition, Start: []byte(memberPrefix), End: []byte("m0"), Consistent: true})
	defer it.Close()
	var out []Member
	for it.Next() {
		item := it.Item()
		slot, err := strconv.Atoi(string(item.Key.Sort[len(memberPrefix):]))
		if err != nil {
			continue
		}
		out = append(out, decodeMember(slot, item.Attrs))
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slot < out[j].Slot })
	return out, nil
}

// decodeMember reads an entry; its strings are copied, since a scan's
// items are valid only until the iterator moves (kv.Iterator).
func decodeMember(slot int, attrs []kv.Attr) Member {
	return Member{
		Slot:      slot,
		ID:        strings.Clone(kv.Lookup(attrs, attrID).S),
		Addr:      strings.Clone(kv.Lookup(attrs, attrAddr).S),
		Started:   time.UnixMilli(kv.Lookup(attrs, attrStarted).I),
		Heartbeat: time.UnixMilli(kv.Lookup(attrs, attrBeat).I),
	}
}
