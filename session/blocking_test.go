package session_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestBlockingPIDs: pg_blocking_pids names the sessions holding, in a
// conflicting mode, the advisory lock a session waits for, and is empty
// for a session that waits for nothing.
func TestBlockingPIDs(t *testing.T) {
	eng, err := session.New(context.Background(), session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	open := func() (wire.Session, string) {
		s, err := eng.NewSession(context.Background(), wire.SessionParams{User: "u", Database: "postgres", Notice: func(*pgerr.Error) {}})
		if err != nil {
			t.Fatal(err)
		}
		return s, mustExec(t, s, "SELECT pg_backend_pid()")[0]
	}
	a, apid := open()
	defer a.Close()
	b, bpid := open()
	defer b.Close()
	c, cpid := open()
	defer c.Close()
	mustExec(t, a, "SELECT pg_advisory_lock_shared(9)")
	mustExec(t, c, "SELECT pg_advisory_lock_shared(9)")
	mustExec(t, c, "SELECT pg_advisory_lock(10)")
	if got := mustExec(t, a, "SELECT pg_blocking_pids("+bpid+")"); got[0] != "{}" {
		t.Errorf("blockers of an idle session: %v", got)
	}
	done := make(chan []string)
	go func() { done <- mustExec(t, b, "SELECT pg_advisory_lock(9)") }()
	want := fmt.Sprintf("{%s,%s}", min(apid, cpid), max(apid, cpid))
	if len(apid) != len(cpid) {
		t.Fatalf("process IDs %s and %s sort differently as text", apid, cpid)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := mustExec(t, a, "SELECT pg_blocking_pids("+bpid+"), pg_blocking_pids("+apid+")")
		if got[0] == want+"|{}" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pg_blocking_pids while waiting: %v, want %s|{}", got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	mustExec(t, a, "SELECT pg_advisory_unlock_shared(9)")
	if got := mustExec(t, a, "SELECT pg_blocking_pids("+bpid+")"); got[0] != "{"+cpid+"}" {
		t.Errorf("after one holder let go: %v, want {%s}", got, cpid)
	}
	mustExec(t, c, "SELECT pg_advisory_unlock_shared(9)")
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting session was not granted the released lock")
	}
	if got := mustExec(t, a, "SELECT pg_blocking_pids("+bpid+")"); got[0] != "{}" {
		t.Errorf("blockers after the grant: %v", got)
	}
}
