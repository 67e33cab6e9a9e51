package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestAdvisoryLocksAcrossSessions: an advisory lock taken by one session
// excludes the proxy's other sessions until it is released, by unlock or
// by the session's end; pg_locks and pg_stat_activity show the sessions.
func TestAdvisoryLocksAcrossSessions(t *testing.T) {
	eng, err := session.New(context.Background(), session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	open := func(app string) wire.Session {
		s, err := eng.NewSession(context.Background(), wire.SessionParams{User: "u", Database: "postgres",
			Startup: map[string]string{"application_name": app}, Notice: func(*pgerr.Error) {}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := open("a"), open("b")
	defer b.Close()
	if got := mustExec(t, a, "SELECT pg_try_advisory_lock(7), pg_try_advisory_lock(7)"); got[0] != "t|t" {
		t.Fatalf("first session: %v", got)
	}
	if got := mustExec(t, b, "SELECT pg_try_advisory_lock(7), pg_try_advisory_lock(7, 0)"); got[0] != "f|t" {
		t.Fatalf("second session took a held lock: %v", got)
	}
	if got := mustExec(t, b, "SELECT locktype, mode, granted FROM pg_locks ORDER BY pid"); len(got) != 2 || got[0] != "advisory|ExclusiveLock|t" {
		t.Errorf("pg_locks: %v", got)
	}
	if got := mustExec(t, b, "SELECT application_name, state FROM pg_stat_activity ORDER BY pid"); strings.Join(got, ",") != "a|idle,b|active" {
		t.Errorf("pg_stat_activity: %v", got)
	}

	// A blocking lock waits for the holder to let go.
	done := make(chan []string)
	go func() { done <- mustExec(t, b, "SELECT pg_advisory_lock(7)") }()
	select {
	case <-done:
		t.Fatal("pg_advisory_lock did not wait for the holder")
	case <-time.After(100 * time.Millisecond):
	}
	if got := mustExec(t, a, "SELECT pg_advisory_unlock(7), pg_advisory_unlock(7), pg_advisory_unlock(7)"); got[0] != "t|t|f" {
		t.Errorf("unlocks: %v", got)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting session was not granted the released lock")
	}
	// The end of a session releases its locks.
	b.Close()
	c := open("c")
	defer c.Close()
	if got := mustExec(t, c, "SELECT pg_try_advisory_lock(7), pg_try_advisory_lock(7, 0)"); got[0] != "t|t" {
		t.Errorf("locks of a closed session were kept: %v", got)
	}
	a.Close()
}
