package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

func memStore(t *testing.T) kv.Store {
	t.Helper()
	s, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// clock is a settable clock shared by the registries of a test.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func join(t *testing.T, store kv.Store, clk *clock, addr string) *Registry {
	t.Helper()
	r, err := Join(context.Background(), store, Options{Addr: addr, TTL: time.Hour, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Leave(context.Background()) })
	return r
}

func TestRegistrySlots(t *testing.T) {
	ctx := context.Background()
	store := memStore(t)
	clk := &clock{now: time.Unix(1_700_000_000, 0)}
	a := join(t, store, clk, "a:1")
	b := join(t, store, clk, "b:1")
	c := join(t, store, clk, "c:1")
	if got := []int{a.Self().Slot, b.Self().Slot, c.Self().Slot}; got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Fatalf("slots %v, want [1 2 3]", got)
	}
	if string(a.secret) != string(c.secret) || len(a.secret) != 32 {
		t.Fatal("the proxies do not share one secret")
	}
	members, err := b.Members(ctx)
	if err != nil || len(members) != 3 {
		t.Fatalf("members %v, %v", members, err)
	}
	// b leaves: its slot is free for the next proxy.
	if err := b.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	if members, _ := a.Members(ctx); len(members) != 2 {
		t.Fatalf("after a leave: %v", members)
	}
	d := join(t, store, clk, "d:1")
	if d.Self().Slot != 2 {
		t.Fatalf("a new proxy took slot %d, want the freed 2", d.Self().Slot)
	}
	// c stops beating (killed): once its TTL passes it is dead, and a new
	// proxy takes its slot; c's next heartbeat finds the slot lost.
	if err := a.Beat(ctx); err != nil {
		t.Fatal(err)
	}
	clk.advance(59 * time.Minute)
	if err := a.Beat(ctx); err != nil {
		t.Fatal(err)
	}
	if err := d.Beat(ctx); err != nil {
		t.Fatal(err)
	}
	clk.advance(2 * time.Minute)
	if _, alive, _ := a.Member(ctx, 3); alive {
		t.Fatal("a proxy past its TTL is alive")
	}
	members, _ = a.Members(ctx)
	if len(members) != 2 {
		t.Fatalf("members past c's TTL: %v", members)
	}
	e := join(t, store, clk, "e:1")
	if e.Self().Slot != 3 {
		t.Fatalf("took slot %d, want dead c's 3", e.Self().Slot)
	}
	if err := c.Beat(ctx); !errors.Is(err, ErrSlotLost) {
		t.Fatalf("c's heartbeat after the take-over: %v, want ErrSlotLost", err)
	}
	m, alive, err := a.Member(ctx, 3)
	if err != nil || !alive || m.Addr != "e:1" {
		t.Fatalf("slot 3 is %+v (alive %v, %v), want e", m, alive, err)
	}
	// c leaving does not remove e's entry.
	c.Leave(ctx)
	if _, alive, _ := a.Member(ctx, 3); !alive {
		t.Fatal("a lost proxy's Leave removed its successor")
	}
}

// TestRegistryRacingJoins: proxies joining at once get distinct slots.
func TestRegistryRacingJoins(t *testing.T) {
	store := memStore(t)
	clk := &clock{now: time.Unix(1_700_000_000, 0)}
	const n = 8
	regs := make([]*Registry, n)
	var wg sync.WaitGroup
	for i := range regs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := Join(context.Background(), store, Options{Addr: "x:1", TTL: time.Hour, Now: clk.Now})
			if err != nil {
				t.Error(err)
				return
			}
			regs[i] = r
		}()
	}
	wg.Wait()
	seen := map[int]bool{}
	for _, r := range regs {
		if r == nil {
			t.FailNow()
		}
		if seen[r.Self().Slot] {
			t.Fatalf("slot %d given twice", r.Self().Slot)
		}
		seen[r.Self().Slot] = true
		r.Leave(context.Background())
	}
}

// fakeHandler records what peers asked of it.
type fakeHandler struct {
	mu       sync.Mutex
	canceled []uint32
	signaled []uint32
}

func (h *fakeHandler) Cancel(pid uint32, secret []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if string(secret) == "sec!" {
		h.canceled = append(h.canceled, pid)
	}
}

func (h *fakeHandler) Signal(pid uint32, terminate bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.signaled = append(h.signaled, pid)
	return pid == 2<<SlotShift|7
}

func (h *fakeHandler) Sessions() json.RawMessage { return json.RawMessage(`[{"pid":1}]`) }

func (h *fakeHandler) Statements() json.RawMessage { return json.RawMessage(`[]`) }

func (h *fakeHandler) ResetStatements(userID, dbID uint32, queryID int64) {}

// servePeers is a minimal listener speaking the peer protocol as wire does:
// it declines TLS and answers one request per connection.
func servePeers(t *testing.T, n *Node) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				var ssl [8]byte
				if _, err := c.Read(ssl[:]); err != nil {
					return
				}
				c.Write([]byte{'N'})
				buf := make([]byte, 10000)
				k, _ := c.Read(buf)
				if k < 8 {
					return
				}
				if answer := n.ServePeer(buf[8:k]); answer != nil {
					c.Write(answer)
				}
			}()
		}
	}()
	return ln.Addr().String()
}

func TestPeerRequests(t *testing.T) {
	ctx := context.Background()
	store := memStore(t)
	clk := &clock{now: time.Now()}
	// Proxy 1 joins with an address to be known once it listens.
	r1, err := Join(ctx, store, Options{Addr: "pending", TTL: time.Hour, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Leave(ctx)
	n1 := NewNode(r1, nil)
	r2, err := Join(ctx, store, Options{Addr: "pending", TTL: time.Hour, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Leave(ctx)
	n2 := NewNode(r2, nil)
	h2 := &fakeHandler{}
	n2.SetHandler(h2)
	addr := servePeers(t, n2)
	r2.mu.Lock()
	r2.self.Addr = addr
	r2.mu.Unlock()
	if err := r2.Beat(ctx); err != nil {
		t.Fatal(err)
	}
	pid := uint32(2<<SlotShift | 7)
	if n1.Owns(pid) || !n2.Owns(pid) {
		t.Fatal("Owns disagrees with the slots")
	}
	found, err := n1.Signal(ctx, pid, true)
	if err != nil || !found {
		t.Fatalf("Signal: %v %v", found, err)
	}
	if found, _ := n1.Signal(ctx, 5<<SlotShift|7, false); found {
		t.Fatal("a signal to a slot no proxy has found a session")
	}
	sessions, err := n1.PeerSessions(ctx)
	if err != nil || len(sessions) != 1 || string(sessions[0]) != `[{"pid":1}]` {
		t.Fatalf("PeerSessions: %s %v", sessions, err)
	}
	n1.ForwardCancel(pid, []byte("sec!"))
	n1.ForwardCancel(pid, []byte("bad!"))
	deadline := time.Now().Add(5 * time.Second)
	for {
		h2.mu.Lock()
		got := len(h2.canceled)
		h2.mu.Unlock()
		if got == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("forwarded cancels served: %d, want 1", got)
		}
		time.Sleep(10 * time.Millisecond)
	}

	// Requests that are not genuine get no answer: a wrong signature, one
	// meant for another member, a stale one.
	body, _ := n1.sign(request{To: r2.Self().ID, At: time.Now().UnixMilli(), Op: opSignal, PID: pid})
	body[0] ^= 1
	if n2.ServePeer(body) != nil {
		t.Fatal("a request with a wrong signature was answered")
	}
	body, _ = n1.sign(request{To: r1.Self().ID, At: time.Now().UnixMilli(), Op: opSignal, PID: pid})
	if r := n2.ServePeer(body); r == nil || !json.Valid(r[4:]) || string(r[4:]) == `{"found":true}` {
		t.Fatalf("a request for another member: %q", r)
	}
	body, _ = n1.sign(request{To: r2.Self().ID, At: time.Now().Add(-time.Hour).UnixMilli(), Op: opSignal, PID: pid})
	if r := n2.ServePeer(body); r == nil || string(r[4:]) == `{"found":true}` {
		t.Fatalf("a stale request: %q", r)
	}
	h2.mu.Lock()
	defer h2.mu.Unlock()
	if len(h2.signaled) != 1 {
		t.Fatalf("signals served: %v, want the one genuine one", h2.signaled)
	}
}

// TestStoreLocks: advisory locks in the store exclude sessions of two
// proxies, are re-entrant, shared or exclusive, wait, are released at a
// session's end, and those of a proxy that died are free once it has left
// the registry.
func TestStoreLocks(t *testing.T) {
	bg := context.Background()
	store := memStore(t)
	clk := &clock{now: time.Now()}
	r1 := join(t, store, clk, "a:1")
	r2 := join(t, store, clk, "b:1")
	l1, l2 := NewLocks(r1), NewLocks(r2)
	p1, p2 := uint32(1<<SlotShift|5), uint32(2<<SlotShift|5)
	try := func(l *Locks, pid uint32, shared bool) bool {
		ok, err := l.TryLock(bg, pid, 42, shared)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !try(l1, p1, false) || !try(l1, p1, false) {
		t.Fatal("a session cannot take its own lock twice")
	}
	if try(l2, p2, false) || try(l2, p2, true) {
		t.Fatal("a session of another proxy took a held exclusive lock")
	}
	if ok, _ := l1.Unlock(bg, p1, 42, false); !ok || try(l2, p2, false) {
		t.Fatal("one unlock of two holds released the lock")
	}
	l1.Unlock(bg, p1, 42, false)
	if !try(l2, p2, true) || !try(l1, p1, true) || try(l1, p1+1, false) {
		t.Fatal("shared locks do not share, or do not exclude")
	}
	held, err := l1.Held(bg)
	if err != nil || len(held) != 2 {
		t.Fatalf("held: %v %v", held, err)
	}
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	done := make(chan error)
	go func() { done <- l1.Lock(ctx, p1+1, 42, false) }()
	if err := l2.UnlockAll(bg, p2); err != nil {
		t.Fatal(err)
	}
	l1.UnlockAll(bg, p1)
	if err := <-done; err != nil {
		t.Fatalf("a waiting lock was not granted on release: %v", err)
	}
	// Proxy 1 dies holding the lock: once its entry is gone, proxy 2
	// takes it.
	if try(l2, p2, false) {
		t.Fatal("took a lock a live proxy holds")
	}
	r1.Leave(bg)
	l2.liveRead = time.Time{}
	if !try(l2, p2, false) {
		t.Fatal("a dead proxy's lock is still held")
	}
	if ok, _ := l2.Unlock(bg, p2+1, 42, false); ok {
		t.Fatal("a session released a lock it does not hold")
	}
}
