package pebble

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtest"
)

var bg = context.Background()

func openMem(t testing.TB) *Store {
	t.Helper()
	s, err := Open("db", Options{InMemory: true, CacheSize: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	kvtest.RunWith(t, func(t *testing.T) kv.Store { return openMem(t) }, kvtest.Options{Parallel: true})
}

// TestConformanceOnDisk runs the suite once on a real directory, where every
// write really fsyncs.
func TestConformanceOnDisk(t *testing.T) {
	kvtest.RunWith(t, func(t *testing.T) kv.Store {
		s, err := Open(t.TempDir(), Options{CacheSize: 8 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, kvtest.Options{Parallel: true, LargeBytes: 1 << 20})
}

func testItem(sort string, v int64) kv.Item {
	return kv.Item{Key: kv.Key{Partition: []byte("p"), Sort: []byte(sort)}, Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrInt, I: v}}}
}

func putItem(t testing.TB, s *Store, it kv.Item) {
	t.Helper()
	if err := s.Write(bg, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: it.Key, Attrs: it.Attrs}}}); err != nil {
		t.Fatal(err)
	}
}

func exists(t testing.TB, s *Store, key kv.Key) bool {
	t.Helper()
	got, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{key}})
	if err != nil {
		t.Fatal(err)
	}
	return kv.Found(got[0])
}

// TestAcknowledgedWritesSurviveCrash simulates a power loss with Pebble's
// strict in-memory file system, which forgets everything not synced. A write
// Write acknowledged must survive; a write Pebble accepted without sync (the
// control, proving the simulation loses data) must not.
func TestAcknowledgedWritesSurviveCrash(t *testing.T) {
	fs := vfs.NewStrictMem()
	s, err := Open("db", Options{FS: fs})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		putItem(t, s, testItem(fmt.Sprintf("acked-%02d", i), int64(i)))
	}
	atomicBatch := kv.Batch{Atomic: true, Ops: []kv.Op{
		{Kind: kv.OpPut, Key: testItem("atomic-a", 0).Key, Cond: kv.CondNotExists},
		{Kind: kv.OpPut, Key: testItem("atomic-b", 0).Key, Cond: kv.CondNotExists},
	}}
	if err := s.Write(bg, atomicBatch); err != nil {
		t.Fatal(err)
	}
	unsynced := testItem("unsynced", 1)
	if err := s.db.Set(appendKey(nil, unsynced.Key), []byte{valueFormatV1}, pebble.NoSync); err != nil {
		t.Fatal(err)
	}
	if !exists(t, s, unsynced.Key) {
		t.Fatal("unsynced write not visible before the crash")
	}

	// Crash: from here on nothing reaches "disk"; then drop all unsynced state.
	fs.SetIgnoreSyncs(true)
	s.closeMu.Lock() // abandon the handle without Close's flush
	s.closed = true
	s.closeMu.Unlock()
	if err := s.db.Close(); err != nil {
		t.Fatal(err)
	}
	fs.ResetToSyncedState()
	fs.SetIgnoreSyncs(false)

	s, err = Open("db", Options{FS: fs})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 50 {
		if !exists(t, s, testItem(fmt.Sprintf("acked-%02d", i), 0).Key) {
			t.Errorf("acknowledged write acked-%02d lost in the crash", i)
		}
	}
	for _, k := range []string{"atomic-a", "atomic-b"} {
		if !exists(t, s, testItem(k, 0).Key) {
			t.Errorf("acknowledged atomic write %s lost in the crash", k)
		}
	}
	if exists(t, s, unsynced.Key) {
		t.Error("control: an unsynced write survived, so the crash simulation proves nothing")
	}
}

// TestReopen closes a store on disk and finds everything after reopening.
func TestReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []kv.Item{testItem("a", 1), testItem("b", 2), {Key: kv.Key{Partition: []byte("q"), Sort: []byte("x")}, Attrs: kvtest.AllKinds()}}
	for _, it := range want {
		putItem(t, s, it)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	keys := make([]kv.Key, len(want))
	for i := range want {
		keys[i] = want[i].Key
	}
	got, err := s.Get(bg, kv.GetRequest{Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !kv.Found(got[i]) || !kvtest.AttrsEqual(want[i].Attrs, got[i].Attrs) {
			t.Errorf("item %q after reopen: %s, want %s", want[i].Key.Sort, kvtest.FormatAttrs(got[i].Attrs), kvtest.FormatAttrs(want[i].Attrs))
		}
	}
}

const crashChildEnv = "ZPROXY_KV_PEBBLE_CRASH_CHILD"

// TestSIGKILLAfterAck runs a child process (this test binary) that writes
// items and prints each key once Write has returned; the parent kills it
// with SIGKILL mid-stream and checks that every printed key is on disk.
func TestSIGKILLAfterAck(t *testing.T) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashChild(dir)
		return
	}
	if testing.Short() {
		t.Skip("spawns a subprocess")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSIGKILLAfterAck$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []int
	sc := bufio.NewScanner(out)
	for sc.Scan() && len(acked) < 200 {
		n, err := strconv.Atoi(sc.Text())
		if err != nil {
			continue // the test framework's own output
		}
		acked = append(acked, n)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if len(acked) < 200 {
		t.Fatalf("child acknowledged only %d writes before it stopped", len(acked))
	}
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, n := range acked {
		if !exists(t, s, testItem(fmt.Sprintf("k%06d", n), 0).Key) {
			t.Errorf("acknowledged write %d lost after SIGKILL", n)
		}
	}
}

func crashChild(dir string) {
	s, err := Open(dir, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for n := 0; ; n++ {
		it := testItem(fmt.Sprintf("k%06d", n), int64(n))
		if err := s.Write(bg, kv.Batch{Atomic: n%2 == 0, Ops: []kv.Op{{Kind: kv.OpPut, Key: it.Key, Attrs: it.Attrs}}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println(n)
	}
}

type recordingObserver struct {
	mu    sync.Mutex
	calls []string
}

func (o *recordingObserver) ObserveRequest(backend, op string, d time.Duration, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.calls = append(o.calls, fmt.Sprintf("%s/%s/%v", backend, op, err != nil))
}

func (o *recordingObserver) ObserveCapacity(string, float64) {}

func TestObserver(t *testing.T) {
	obs := &recordingObserver{}
	s, err := Open("db", Options{InMemory: true, Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	putItem(t, s, testItem("a", 1))
	if _, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{testItem("a", 0).Key}}); err != nil {
		t.Fatal(err)
	}
	it := s.Scan(bg, kv.ScanRequest{Partition: []byte("p")})
	for it.Next() {
	}
	it.Close()
	err = s.Write(bg, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Key: testItem("a", 0).Key, Cond: kv.CondNotExists}}})
	var cf *kv.ConditionFailedError
	if !errors.As(err, &cf) {
		t.Fatalf("err = %v, want a condition failure", err)
	}
	want := []string{"pebble/write/false", "pebble/get/false", "pebble/scan/false", "pebble/write/true"}
	if fmt.Sprint(obs.calls) != fmt.Sprint(want) {
		t.Errorf("observed %v, want %v", obs.calls, want)
	}
}

// TestCloseWithOpenIterator: Close succeeds with an iterator left open, and
// the iterator then reports ErrClosed instead of touching a closed database.
func TestCloseWithOpenIterator(t *testing.T) {
	s := openMem(t)
	putItem(t, s, testItem("a", 1))
	putItem(t, s, testItem("b", 2))
	it := s.Scan(bg, kv.ScanRequest{Partition: []byte("p")})
	if !it.Next() {
		t.Fatal(it.Err())
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close with an open iterator: %v", err)
	}
	if it.Next() {
		t.Error("Next after Close returned an item")
	}
	if !errors.Is(it.Err(), kv.ErrClosed) {
		t.Errorf("Err = %v, want ErrClosed", it.Err())
	}
	it.Seek([]byte("b"))
	if err := it.Close(); err != nil {
		t.Errorf("iterator Close after store Close: %v", err)
	}
}

// TestConditionalVersusUnconditional races CondNotExists inserts against
// unconditional puts of the same key. The two serial orders are
// insert-then-put (insert succeeds, put's value stays) and put-then-insert
// (insert fails, put's value stays); so the put's value must always be the
// final one. Finding the insert's value means the put landed between the
// insert's condition check and its commit.
func TestConditionalVersusUnconditional(t *testing.T) {
	s := openMem(t)
	defer s.Close()
	for round := range 200 {
		key := kv.Key{Partition: []byte("race"), Sort: []byte(strconv.Itoa(round))}
		var condErr error
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			condErr = s.Write(bg, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Key: key, Cond: kv.CondNotExists, Attrs: []kv.Attr{{Name: "w", Kind: kv.AttrString, S: "cond"}}}}})
		}()
		go func() {
			defer wg.Done()
			if err := s.Write(bg, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: key, Attrs: []kv.Attr{{Name: "w", Kind: kv.AttrString, S: "plain"}}}}}); err != nil {
				t.Error(err)
			}
		}()
		wg.Wait()
		got, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{key}})
		if err != nil {
			t.Fatal(err)
		}
		final := got[0].Attrs[0].S
		var cf *kv.ConditionFailedError
		switch {
		case condErr == nil && final == "cond":
			t.Fatalf("round %d: conditional insert succeeded and overwrote a concurrent put", round)
		case condErr != nil && !errors.As(condErr, &cf):
			t.Fatalf("round %d: %v", round, condErr)
		case final != "plain":
			t.Fatalf("round %d: final value %q", round, final)
		}
	}
}

func TestCanceledContext(t *testing.T) {
	s := openMem(t)
	defer s.Close()
	ctx, cancel := context.WithCancel(bg)
	cancel()
	it := testItem("a", 1)
	if err := s.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: it.Key, Attrs: it.Attrs}}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Write: %v", err)
	}
	if exists(t, s, it.Key) {
		t.Error("a write with a canceled context landed")
	}
	if _, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{it.Key}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Get: %v", err)
	}
	sc := s.Scan(ctx, kv.ScanRequest{Partition: []byte("p")})
	if sc.Next() || !errors.Is(sc.Err(), context.Canceled) {
		t.Errorf("Scan: Err = %v", sc.Err())
	}
	sc.Close()
}
