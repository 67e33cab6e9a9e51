package wire

import (
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// waitFor polls cond until it holds, failing the test after a generous
// deadline (the machine may be loaded).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *Server) startupCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.startups
}

// TestStartupsDoNotTakeSlots: connections that dawdle over their startup
// packet do not take MaxConnections' slots, so a client that logs in gets
// a session beside them; past MaxStartups they are refused.
func TestStartupsDoNotTakeSlots(t *testing.T) {
	ts := startServer(t, Config{MaxConnections: 1, MaxStartups: 3})
	for range 3 {
		c := dialRaw(t, ts.addr)
		// Half a startup packet's length: the server waits for the rest.
		if _, err := c.nc.Write([]byte{0, 0}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "three startups", func() bool { return ts.srv.startupCount() == 3 })
	c := dialRaw(t, ts.addr)
	if s, _ := c.recv(); s != "Error(FATAL 53300 sorry, too many clients already)" {
		t.Fatalf("socket past MaxStartups: %s", s)
	}
	c.expectEOF()
	waitFor(t, "the refused socket to go", func() bool { return ts.srv.startupCount() == 3 })
	// A startup that completes leaves the startups at once, so a real
	// login only needs a startup place for as long as it logs in.
	ts2 := startServer(t, Config{MaxConnections: 1, MaxStartups: 4})
	for range 3 {
		c := dialRaw(t, ts2.addr)
		if _, err := c.nc.Write([]byte{0, 0}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "three startups", func() bool { return ts2.srv.startupCount() == 3 })
	a := connectRaw(t, ts2.addr)
	a.send(&pgproto3.Query{String: "SELECT 1"})
	a.until("ReadyForQuery")
	if n := ts2.srv.startupCount(); n != 3 {
		t.Errorf("%d startups with a session open, want 3", n)
	}
	if n := ts2.srv.sessionCount(); n != 1 {
		t.Errorf("%d sessions, want 1", n)
	}
}

// TestAuthTimeoutStartupPacket: a connection that has not sent its startup
// packet within AuthTimeout is closed without a message, as PostgreSQL
// closes it, and gives its startup place back.
func TestAuthTimeoutStartupPacket(t *testing.T) {
	ts := startServer(t, Config{AuthTimeout: 300 * time.Millisecond})
	for _, partial := range [][]byte{nil, {0, 0}, {0, 0, 0, 8, 0, 3}} {
		// Timed from before the dial, so that the server's clock, which
		// starts at accept, cannot have run longer.
		start := time.Now()
		c := dialRaw(t, ts.addr)
		if len(partial) > 0 {
			if _, err := c.nc.Write(partial); err != nil {
				t.Fatal(err)
			}
		}
		c.expectEOF()
		if d := time.Since(start); d < 300*time.Millisecond {
			t.Errorf("closed after %v, before authentication_timeout", d)
		}
	}
	waitFor(t, "the startups to end", func() bool { return ts.srv.startupCount() == 0 })
	// An authenticated session is not subject to it.
	a := connectRaw(t, ts.addr)
	time.Sleep(600 * time.Millisecond)
	a.send(&pgproto3.Query{String: "SELECT 1"})
	if got := a.until("ReadyForQuery"); !strings.HasPrefix(got[len(got)-1], "ReadyForQuery") {
		t.Errorf("session after authentication_timeout: %q", got)
	}
}

// TestSuperuserReservedConnections: the last SuperuserReservedConnections
// slots go to superusers only, checked once the role is known, with
// PostgreSQL's message; a superuser still gets in, and past all slots
// everyone gets "too many clients".
func TestSuperuserReservedConnections(t *testing.T) {
	ts := startServer(t, Config{MaxConnections: 3, SuperuserReservedConnections: 2})
	ts.eng.addRole(t, "bob", "", true, false)
	ts.eng.addRole(t, "root", "", true, true)
	login := func(user string) (*rawClient, string) {
		c := dialRaw(t, ts.addr)
		c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": user}})
		for {
			s, _ := c.recv()
			if strings.HasPrefix(s, "ReadyForQuery") || s == "EOF" {
				return c, s
			}
		}
	}
	if _, last := login("bob"); !strings.HasPrefix(last, "ReadyForQuery") {
		t.Fatalf("first ordinary session: %s", last)
	}
	if _, last := login("bob"); last != "EOF" {
		t.Fatalf("ordinary session into the reserve: %s", last)
	}
	if _, last := login("root"); !strings.HasPrefix(last, "ReadyForQuery") {
		t.Fatalf("superuser into the reserve: %s", last)
	}
	// An unknown user under trust is a superuser too.
	if _, last := login("anyone"); !strings.HasPrefix(last, "ReadyForQuery") {
		t.Fatalf("second superuser into the reserve: %s", last)
	}
	for _, user := range []string{"root", "bob"} {
		c := dialRaw(t, ts.addr)
		c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": user}})
		if s, _ := c.recv(); s != "Error(FATAL 53300 sorry, too many clients already)" {
			t.Errorf("%s past max_connections: %s", user, s)
		}
	}
}

// TestSuperuserReservedMessage checks the reserve's exact error.
func TestSuperuserReservedMessage(t *testing.T) {
	ts := startServer(t, Config{MaxConnections: 2, SuperuserReservedConnections: 1})
	ts.eng.addRole(t, "bob", "", true, false)
	for i := range 2 {
		c := dialRaw(t, ts.addr)
		c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "bob"}})
		s, _ := c.recv()
		if i == 0 {
			c.until("ReadyForQuery")
			continue
		}
		if s != "Error(FATAL 53300 remaining connection slots are reserved for non-replication superuser connections)" {
			t.Errorf("ordinary role into the reserve: %s", s)
		}
	}
	if n := ts.srv.sessionCount(); n != 1 {
		t.Errorf("%d sessions after a refusal, want 1", n)
	}
}

// TestConfigClampsReserve: a reserve of all the slots would let no
// ordinary role in; it is kept below MaxConnections.
func TestConfigClampsReserve(t *testing.T) {
	cfg := Config{MaxConnections: 3, SuperuserReservedConnections: 5}.withDefaults()
	if cfg.SuperuserReservedConnections != 2 {
		t.Errorf("reserve %d, want 2", cfg.SuperuserReservedConnections)
	}
	if cfg.MaxStartups != 2*3+startupHeadroom {
		t.Errorf("MaxStartups %d", cfg.MaxStartups)
	}
}
