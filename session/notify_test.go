package session_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/wire"
)

// TestNotifyQueueFull: NOTIFYs to a listener that is sent nothing fill the
// NOTIFY queue; the next fails with PostgreSQL's 54000, a block's COMMIT
// with it rolls back, and once the listener's notifications are sent (or
// dropped) NOTIFY works again. pg_notification_queue_usage follows.
func TestNotifyQueueFull(t *testing.T) {
	ctx := context.Background()
	eng, _ := newSession(t, memStore(t))
	q := wire.NewNotifyQueue(64 << 10)
	var mu sync.Mutex
	var held []*wire.Notification
	listener, err := eng.NewSession(ctx, wire.SessionParams{User: "l", PID: 101, Notice: func(*pgerr.Error) {}, NotifyQueue: q,
		Notify: func(n *wire.Notification) { mu.Lock(); held = append(held, n); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	var warnings []string
	notifier, err := eng.NewSession(ctx, wire.SessionParams{User: "n", PID: 102, NotifyQueue: q,
		Notice: func(e *pgerr.Error) { warnings = append(warnings, e.Severity+" "+e.Code.String()+" "+e.Message) }})
	if err != nil {
		t.Fatal(err)
	}
	defer notifier.Close()
	mustExec(t, listener, "LISTEN ch")
	payload := strings.Repeat("x", 4000)
	sent := 0
	for ; sent < 100; sent++ {
		if _, err := runSQL(ctx, notifier, "NOTIFY ch, '"+payload+"'"); err != nil {
			if pgerr.CodeOf(err) != pgerr.ProgramLimitExceeded || !strings.Contains(err.Error(), "too many notifications in the NOTIFY queue") {
				t.Fatalf("NOTIFY into a full queue: %v", err)
			}
			break
		}
	}
	if sent == 0 || sent == 100 {
		t.Fatalf("%d NOTIFYs before the queue was full", sent)
	}
	// Past half full, PostgreSQL's warning, once within five seconds.
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "WARNING 01000 NOTIFY queue is ") || !strings.HasSuffix(warnings[0], "% full") {
		t.Errorf("warnings: %q", warnings)
	}
	if q.Used() > 64<<10 {
		t.Errorf("queue holds %d bytes, past its 64 KiB", q.Used())
	}
	if got := mustExec(t, notifier, "SELECT pg_notification_queue_usage() > 0.9"); got[0] != "t" {
		t.Errorf("pg_notification_queue_usage() > 0.9: %v", got)
	}
	// The notifying session is fine; a block whose NOTIFY does not fit
	// fails at COMMIT and rolls back.
	mustExec(t, notifier, "CREATE TABLE t (k INT PRIMARY KEY)")
	mustExec(t, notifier, "BEGIN")
	mustExec(t, notifier, "INSERT INTO t VALUES (1)")
	mustExec(t, notifier, "NOTIFY ch, '"+payload+"'")
	if _, err := runSQL(ctx, notifier, "COMMIT"); pgerr.CodeOf(err) != pgerr.ProgramLimitExceeded {
		t.Fatalf("COMMIT with a NOTIFY into a full queue: %v", err)
	}
	if got := mustExec(t, notifier, "SELECT count(*) FROM t"); got[0] != "0" {
		t.Errorf("the failed COMMIT's row is there: %v", got)
	}
	// The listener's connection sends them: the room comes back.
	mu.Lock()
	for _, n := range held {
		n.Done()
	}
	held = nil
	mu.Unlock()
	if q.Used() != 0 {
		t.Errorf("queue holds %d bytes after delivery", q.Used())
	}
	mustExec(t, notifier, "NOTIFY ch, 'again'")
	if got := mustExec(t, notifier, "SELECT pg_notification_queue_usage() BETWEEN 0.0001 AND 0.01"); got[0] != "t" {
		t.Errorf("pg_notification_queue_usage() after one small NOTIFY: %v", got)
	}
	// NOTIFY with no listener takes no room.
	mustExec(t, notifier, "NOTIFY nobody, '"+payload+"'")
	mu.Lock()
	if len(held) != 1 || held[0].Payload != "again" || held[0].PID != 102 {
		t.Errorf("delivered %d notifications, want the one 'again'", len(held))
	}
	mu.Unlock()
}

// TestServerSettings: the wire server's settings show as PostgreSQL
// shows them, and a session cannot set them.
func TestServerSettings(t *testing.T) {
	ctx := context.Background()
	eng, plain := newSession(t, memStore(t))
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "u", Notice: func(*pgerr.Error) {},
		ServerSettings: map[string]string{"authentication_timeout": "5", "max_connections": "10", "superuser_reserved_connections": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	for _, tc := range []struct {
		s    wire.Session
		sql  string
		want string
	}{
		{plain, "SHOW authentication_timeout", "1min"},
		{plain, "SHOW superuser_reserved_connections", "3"},
		{plain, "SHOW max_connections", "100"},
		{sess, "SHOW authentication_timeout", "5s"},
		{sess, "SHOW superuser_reserved_connections", "2"},
		{sess, "SELECT current_setting('max_connections')", "10"},
		{plain, "SELECT setting || ' ' || unit || ' ' || context || ' ' || vartype || ' ' || min_val || ' ' || max_val || ' ' || boot_val FROM pg_settings WHERE name = 'authentication_timeout'", "60 s sighup integer 1 600 60"},
		{sess, "SELECT setting || ' ' || context || ' ' || boot_val FROM pg_settings WHERE name = 'superuser_reserved_connections'", "2 postmaster 3"},
	} {
		got := mustExec(t, tc.s, tc.sql)
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: %v, want %s", tc.sql, got, tc.want)
		}
	}
	for sql, msg := range map[string]string{
		"SET authentication_timeout = 5":         `parameter "authentication_timeout" cannot be changed now`,
		"SET max_connections = 5":                `parameter "max_connections" cannot be changed without restarting the server`,
		"SET superuser_reserved_connections = 0": `parameter "superuser_reserved_connections" cannot be changed without restarting the server`,
	} {
		_, err := runSQL(ctx, sess, sql)
		if pgerr.CodeOf(err) != pgerr.CantChangeRuntimeParam || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v", sql, err)
		}
	}
	mustExec(t, sess, "RESET ALL")
}
