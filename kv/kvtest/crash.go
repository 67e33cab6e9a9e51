package kvtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
)

// Crash tests: a helper process (the test binary re-executing itself) runs
// large transactions in a loop and is killed with SIGKILL at random points,
// some of them while a commit is under way; after each kill the test checks
// from its own process that every transaction is wholly present or wholly
// absent, and that every transaction the helper saw commit is there.
//
// A backend's test package provides the helper as a test that does nothing
// unless CrashHelperEnv is set:
//
//	func TestCrashHelper(t *testing.T) {
//		if os.Getenv(kvtest.CrashHelperEnv) == "" {
//			t.Skip("helper process for TestCrash")
//		}
//		kvtest.CrashWorkload(t, openFromEnv())
//	}
//
// and the test itself calls RunCrash.

// CrashHelperEnv is set in the helper's environment (to the partition to
// write, in hex) by RunCrash.
const CrashHelperEnv = "ZPROXY_KVTEST_CRASH_PARTITION"

// CrashOptions configures RunCrash.
type CrashOptions struct {
	// Helper is the name of the test that runs CrashWorkload.
	Helper string
	// Env is added to the helper's environment (how to open the store).
	Env []string
	// Rounds is the number of helper processes started and killed
	// (default 8).
	Rounds int
	// MaxOps bounds the item writes of one transaction (default 3000).
	MaxOps int
	// Open opens the store to check, after each kill (the helper's files
	// are free again: a Pebble directory can be reopened).
	Open func(t *testing.T) kv.Store
}

const crashAccounts = 10

// CrashWorkload is the helper's loop: transactions that each write a
// random number (up to the MaxOps given by RunCrash) of items tagged with
// the transaction's id and count, delete the items of the transaction
// before, and set every account to their id. It prints "committing ID" and
// "committed ID" lines on stdout around each Commit and never returns
// unless it fails.
func CrashWorkload(t *testing.T, s kv.Transactional) {
	p, err := hexDecode(os.Getenv(CrashHelperEnv))
	if err != nil {
		t.Fatal(err)
	}
	maxOps, _ := strconv.Atoi(os.Getenv(CrashHelperEnv + "_MAXOPS"))
	maxOps = max(maxOps, 1)
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	ctx := context.Background()
	say("ready")
	for {
		txn, err := s.Begin(ctx, kv.TxnOptions{})
		if err != nil {
			t.Fatal(err)
		}
		accts, err := txn.Get(ctx, kv.GetRequest{Keys: []kv.Key{crashAccount(p, 0)}, Consistent: true})
		if err != nil {
			t.Fatal(err)
		}
		id := rand.Int64N(1<<62) + 1
		n := rand.IntN(maxOps) + 1
		var ops []kv.Op
		if kv.Found(accts[0]) {
			prev := kv.Lookup(accts[0].Attrs, "id").I
			it := txn.Scan(ctx, kv.ScanRequest{Partition: p, Start: crashItemPrefix(prev), End: kv.PrefixEnd(crashItemPrefix(prev))})
			for it.Next() {
				ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: p, Sort: bytes.Clone(it.Item().Key.Sort)}})
			}
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
		}
		for j := range n {
			ops = append(ops, kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: p, Sort: fmt.Appendf(crashItemPrefix(id), "%06d", j)},
				Attrs: []kv.Attr{intAttr("id", id), intAttr("n", int64(n))}})
		}
		for a := range crashAccounts {
			ops = append(ops, kv.Op{Kind: kv.OpPut, Key: crashAccount(p, a), Attrs: []kv.Attr{intAttr("id", id)}})
		}
		if err := txn.Write(ctx, kv.Batch{Ops: ops}); err != nil {
			t.Fatal(err)
		}
		say("committing %d", id)
		err = txn.Commit(ctx)
		var ce *kv.ConflictError
		switch {
		case err == nil:
			say("committed %d", id)
		case errors.As(err, &ce):
			say("conflict %d", id) // a transaction of an earlier, killed helper is still being resolved
		default:
			t.Fatal(err)
		}
	}
}

func crashAccount(p []byte, a int) kv.Key {
	return kv.Key{Partition: p, Sort: fmt.Appendf(nil, "acct/%02d", a)}
}

func crashItemPrefix(id int64) []byte { return fmt.Appendf(nil, "item/%016x/", id) }

func hexDecode(s string) ([]byte, error) {
	out := make([]byte, len(s)/2)
	for i := range out {
		v, err := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("kvtest: bad partition %q in %s", s, CrashHelperEnv)
		}
		out[i] = byte(v)
	}
	return out, nil
}

// RunCrash starts the helper Rounds times, kills it with SIGKILL at a
// random point (half the time right after it announces a commit), and
// after each kill checks the store with Check.
func RunCrash(t *testing.T, opts CrashOptions) {
	if opts.Rounds <= 0 {
		opts.Rounds = 8
	}
	if opts.MaxOps <= 0 {
		opts.MaxOps = 3000
	}
	p := newNamespace(t).part("crash")
	var acked int64 // the last id the helpers saw commit
	for round := range opts.Rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^"+opts.Helper+"$", "-test.count=1")
		cmd.Env = append(os.Environ(), opts.Env...)
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%x", CrashHelperEnv, p), fmt.Sprintf("%s_MAXOPS=%d", CrashHelperEnv, opts.MaxOps))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		killMidCommit := round%2 == 0
		deadline := time.After(time.Duration(200+rand.IntN(1500)) * time.Millisecond)
		var committing int64
		var committingSince time.Time
		commitTime := time.Millisecond // how long the last commit took
		commits := 0
		// note follows the helper's progress line by line; it reports
		// whether the helper just announced a commit.
		note := func(l string) bool {
			verb, arg, _ := strings.Cut(l, " ")
			id, _ := strconv.ParseInt(arg, 10, 64)
			switch verb {
			case "committing":
				committing, committingSince = id, time.Now()
				return true
			case "committed":
				acked, committing = id, 0
				commitTime = time.Since(committingSince)
				commits++
			}
			return false
		}
	wait:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					cmd.Wait()
					t.Fatalf("round %d: the helper exited: %s", round, stderr.String())
				}
				// Kill within a commit, at a random point of about as long
				// as the last commit took.
				if note(l) && killMidCommit && commits > 0 && rand.IntN(3) == 0 {
					time.Sleep(time.Duration(rand.Int64N(int64(commitTime) * 6 / 5)))
					break wait
				}
			case <-deadline:
				if !killMidCommit || commits > 3 {
					break wait
				}
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		// Lines the helper wrote before it died may still be in the pipe.
		for l := range lines {
			note(l)
		}
		cmd.Wait()
		s := opts.Open(t)
		last := CheckCrash(t, s, p)
		if last != acked && last != committing {
			t.Fatalf("round %d: the accounts hold transaction %d; the last acknowledged commit was %d, the one in flight %d", round, last, acked, committing)
		}
		acked = last
		switch {
		case committing == 0:
			t.Logf("round %d: %d commits, killed between commits", round, commits)
		case last == committing:
			t.Logf("round %d: %d commits, killed during a commit, which is wholly there", round, commits)
		default:
			t.Logf("round %d: %d commits, killed during a commit, which is wholly absent", round, commits)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// CheckCrash checks the crash workload's invariants in partition p and
// returns the id all accounts hold (0 when none exists): every
// transaction's items are all present or all absent, every account holds
// the same id, and that transaction's items are present.
func CheckCrash(t *testing.T, s kv.Store, p []byte) int64 {
	t.Helper()
	read := func() (map[int64]int, map[int64]int64, []int64, error) {
		counts := map[int64]int{}
		want := map[int64]int64{}
		it := s.Scan(ctx, kv.ScanRequest{Partition: p, Start: []byte("item/"), End: []byte("item0"), Consistent: true})
		for it.Next() {
			id, n := kv.Lookup(it.Item().Attrs, "id").I, kv.Lookup(it.Item().Attrs, "n").I
			counts[id]++
			want[id] = n
		}
		if err := it.Close(); err != nil {
			return nil, nil, nil, err
		}
		keys := make([]kv.Key, crashAccounts)
		for a := range keys {
			keys[a] = crashAccount(p, a)
		}
		got, err := s.Get(ctx, kv.GetRequest{Keys: keys, Consistent: true})
		if err != nil {
			return nil, nil, nil, err
		}
		ids := make([]int64, len(got))
		for a, it := range got {
			ids[a] = kv.Lookup(it.Attrs, "id").I
		}
		return counts, want, ids, nil
	}
	counts, want, ids, err := read()
	if err != nil {
		t.Fatal(err)
	}
	for id, c := range counts {
		if int64(c) != want[id] {
			t.Fatalf("transaction %d: %d of its %d items present", id, c, want[id])
		}
	}
	for a, id := range ids {
		if id != ids[0] {
			t.Fatalf("account %d holds transaction %d, account 0 holds %d", a, id, ids[0])
		}
	}
	if ids[0] != 0 && counts[ids[0]] == 0 {
		t.Fatalf("the accounts hold transaction %d, whose items are missing", ids[0])
	}
	return ids[0]
}
