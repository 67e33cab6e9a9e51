package wire

import (
	"encoding/binary"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// rawMessage frames a message of type t with body as it is, whatever it
// holds.
func rawMessage(t byte, body []byte) []byte {
	b := []byte{t, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(len(body)+4))
	return append(b, body...)
}

// TestMalformedMessages: a message whose framing is intact but whose
// content does not decode is an ERROR for that message, as in PostgreSQL;
// the connection goes on.
func TestMalformedMessages(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bytes []byte
		want  []string
	}{
		{"truncated Bind", append(rawMessage('B', []byte{0, 0, 0, 1, 0}), encodeMessages(t, &pgproto3.Sync{})...),
			[]string{"Error(ERROR 08P01 insufficient data left in message)", "ReadyForQuery(I)"}},
		{"Query without its terminator", rawMessage('Q', []byte("INSERT")),
			[]string{"Error(ERROR 08P01 invalid string in message)", "ReadyForQuery(I)"}},
		{"Sync with a body", rawMessage('S', []byte{1}),
			[]string{"Error(ERROR 08P01 invalid message format)", "ReadyForQuery(I)"}},
		{"a malformed message while skipping to Sync is skipped", append(append(encodeMessages(t, &pgproto3.Parse{Query: "SYNTAX"}),
			rawMessage('B', []byte{1})...), encodeMessages(t, &pgproto3.Sync{})...),
			[]string{`Error(ERROR 42601 syntax error at or near "SYNTAX" @1)`, "ReadyForQuery(I)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, Config{})
			c := connectRaw(t, ts.addr)
			if _, err := c.nc.Write(tc.bytes); err != nil {
				t.Fatal(err)
			}
			got := c.until("ReadyForQuery")
			if !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			c.send(&pgproto3.Query{String: "SERIES 1"})
			if got := c.until("ReadyForQuery"); !slices.Contains(got, "CommandComplete(SELECT 1)") {
				t.Errorf("connection not usable after: %q", got)
			}
		})
	}
}

// TestPreAuthLimits: before authentication only PostgreSQL's small messages
// are accepted, so an unauthenticated client cannot make the server
// allocate what it announces.
func TestPreAuthLimits(t *testing.T) {
	ts := startServer(t, Config{Auth: AuthSCRAM, MaxMessageSize: 64 << 20})
	ts.eng.addRole(t, "u", "pw", true, true)
	for _, tc := range []struct {
		name string
		send func(c *rawClient)
		want string
	}{
		{"a 64 MiB password message", func(c *rawClient) {
			c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "u"}})
			c.until("AuthenticationSASL")
			c.nc.Write([]byte{'p', 4, 0, 0, 0})
		}, "Error(FATAL 08P01 message of 67108860 bytes exceeds the limit of 65535 bytes)"},
		{"a 64 MiB startup packet", func(c *rawClient) {
			c.nc.Write([]byte{4, 0, 0, 0, 0, 3, 0, 0})
		}, "Error(FATAL 08P01 invalid length of startup packet)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dialRaw(t, ts.addr)
			tc.send(c)
			if s, _ := c.recv(); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
			c.expectEOF()
		})
	}
}

// TestMaxConnections: one session more than MaxConnections is refused with
// 53300 after its startup packet; a CancelRequest still gets through.
func TestMaxConnections(t *testing.T) {
	ts := startServer(t, Config{MaxConnections: 2})
	a := connectRaw(t, ts.addr)
	connectRaw(t, ts.addr)
	c := dialRaw(t, ts.addr)
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "u"}})
	if s, _ := c.recv(); s != "Error(FATAL 53300 sorry, too many clients already)" {
		t.Fatalf("third session: %s", s)
	}
	c.expectEOF()
	// A cancel request is served at the limit.
	a.send(&pgproto3.Query{String: "SLEEP"})
	<-ts.eng.started
	k := dialRaw(t, ts.addr)
	k.send(&pgproto3.CancelRequest{ProcessID: a.pid, SecretKey: a.secret})
	if got := a.until("ReadyForQuery"); !slices.Contains(got, "Error(ERROR 57014 canceling statement due to user request)") {
		t.Errorf("cancel at the limit: %q", got)
	}
	// A slot comes free when a session ends.
	a.send(&pgproto3.Terminate{})
	a.expectEOF()
	deadline := time.Now().Add(5 * time.Second)
	for ts.srv.sessionCount() > 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	connectRaw(t, ts.addr)
}

// TestMaxSockets: sockets that never send a startup packet are bounded
// too, by MaxStartups, so they cannot pile up without bound.
func TestMaxSockets(t *testing.T) {
	ts := startServer(t, Config{MaxConnections: 1, MaxStartups: 2})
	for range 2 {
		dialRaw(t, ts.addr)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		ts.srv.mu.Lock()
		n := len(ts.srv.conns)
		ts.srv.mu.Unlock()
		if n == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	c := dialRaw(t, ts.addr)
	if s, _ := c.recv(); s != "Error(FATAL 53300 sorry, too many clients already)" {
		t.Fatalf("third socket: %s", s)
	}
}

// TestStatementTimeout covers statement_timeout in both protocols: 57014
// with PostgreSQL's message, the connection kept.
func TestStatementTimeout(t *testing.T) {
	for _, tc := range []struct {
		name string
		msgs []pgproto3.FrontendMessage
	}{
		{"simple", []pgproto3.FrontendMessage{&pgproto3.Query{String: "SLEEP"}}},
		{"simple, set in the same string", []pgproto3.FrontendMessage{&pgproto3.Query{String: "LIMITS 1h 0s; LIMITS 50ms 0s; SLEEP"}}},
		{"extended", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "SLEEP"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, Config{})
			c := connectRaw(t, ts.addr)
			c.send(&pgproto3.Query{String: "LIMITS 50ms 0s"})
			c.until("ReadyForQuery")
			start := time.Now()
			c.send(tc.msgs...)
			got := c.until("ReadyForQuery")
			if !slices.Contains(got, "Error(ERROR 57014 canceling statement due to statement timeout)") {
				t.Errorf("got %q", got)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			c.send(&pgproto3.Query{String: "SERIES 1"})
			if got := c.until("ReadyForQuery"); !slices.Contains(got, "CommandComplete(SELECT 1)") {
				t.Errorf("after the timeout: %q", got)
			}
		})
	}
	// A statement that finishes in time is not affected, and each
	// statement of a string gets the whole timeout.
	ts := startServer(t, Config{})
	ts.eng.maxSleep = 120 * time.Millisecond
	c := connectRaw(t, ts.addr)
	c.send(&pgproto3.Query{String: "LIMITS 200ms 0s; SLEEP; SLEEP"})
	if got := c.until("ReadyForQuery"); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "Error") }) {
		t.Errorf("statements within the timeout: %q", got)
	}
}

// TestIdleInTransactionTimeout: a session idle inside a transaction block
// past idle_in_transaction_session_timeout is closed with FATAL 25P03; one
// idle outside a block is not.
func TestIdleInTransactionTimeout(t *testing.T) {
	ts := startServer(t, Config{})
	c := connectRaw(t, ts.addr)
	c.send(&pgproto3.Query{String: "LIMITS 0s 100ms"})
	c.until("ReadyForQuery")
	time.Sleep(250 * time.Millisecond)
	c.send(&pgproto3.Query{String: "BEGIN"})
	c.until("ReadyForQuery(T)")
	start := time.Now()
	if s, _ := c.recv(); s != "Error(FATAL 25P03 terminating connection due to idle-in-transaction timeout)" {
		t.Fatalf("got %s", s)
	}
	c.expectEOF()
	if d := time.Since(start); d < 90*time.Millisecond || d > 5*time.Second {
		t.Errorf("closed after %v", d)
	}
}

// TestClientDisconnectStopsStatement: a statement whose client hung up is
// canceled within a few check intervals, not left to run to its end.
func TestClientDisconnectStopsStatement(t *testing.T) {
	ts := startServer(t, Config{})
	c := connectRaw(t, ts.addr)
	c.send(&pgproto3.Query{String: "SLEEP"})
	<-ts.eng.started
	c.nc.Close()
	deadline := time.Now().Add(5 * time.Second)
	for ts.eng.openSessions() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := ts.eng.openSessions(); n != 0 {
		t.Fatalf("the statement of a client that hung up still runs (%d sessions open)", n)
	}
}

// TestPipelinedBytesSurviveTheCheck: the disconnect check peeks; what a
// client sent while its statement ran is still read afterwards.
func TestPipelinedBytesSurviveTheCheck(t *testing.T) {
	ts := startServer(t, Config{})
	ts.eng.maxSleep = 350 * time.Millisecond // several check intervals
	c := connectRaw(t, ts.addr)
	c.send(&pgproto3.Query{String: "SLEEP"}, &pgproto3.Query{String: "SERIES 2"})
	first := c.until("ReadyForQuery")
	second := c.until("ReadyForQuery")
	if !slices.Contains(first, "CommandComplete(SLEEP)") || !slices.Contains(second, "CommandComplete(SELECT 2)") {
		t.Errorf("got %q then %q", first, second)
	}
}

func TestParseOptions(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]string
		err  string
	}{
		{"", map[string]string{}, ""},
		{"-c statement_timeout=5s", map[string]string{"statement_timeout": "5s"}, ""},
		{"  -c a=1   -cb=2 --c-d=3 ", map[string]string{"a": "1", "b": "2", "c_d": "3"}, ""},
		{`-c application_name=a\\b\ c`, map[string]string{"application_name": `a\b c`}, ""},
		{"-c search_path=x,y", map[string]string{"search_path": "x,y"}, ""},
		{"-c x", nil, "-c x requires a value"},
		{"--x", nil, "--x requires a value"},
		{"-c", nil, "option requires an argument -- 'c'"},
		{"-B 10", nil, "invalid command-line argument for server process: -B"},
		{"x=1", nil, "invalid command-line argument for server process: x=1"},
	} {
		got := map[string]string{}
		err := parseOptions(tc.in, got)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("parseOptions(%q) error = %v, want %s", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || !mapsEqual(got, tc.want)):
			t.Errorf("parseOptions(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// TestStartupSettings: options first, then the other parameters, which win.
func TestStartupSettings(t *testing.T) {
	ts := startServer(t, Config{})
	c := dialRaw(t, ts.addr)
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{
		"user": "u", "options": "-c statement_timeout=5s -c application_name=fromoptions --lock-timeout=1s",
		"application_name": "top", "client_encoding": "'utf-8'"}})
	c.until("ReadyForQuery")
	got := ts.eng.params[0].Startup
	want := map[string]string{"statement_timeout": "5s", "application_name": "top", "lock_timeout": "1s", "client_encoding": "UTF8"}
	if !mapsEqual(got, want) {
		t.Errorf("settings %v, want %v", got, want)
	}
	if c.params["application_name"] != "top" {
		t.Errorf("application_name reported %q", c.params["application_name"])
	}
}

// TestUnencryptedDataAfterSSLRequest: bytes pipelined behind an SSLRequest
// would pass as coming from inside TLS (CVE-2021-23214); they end the
// connection.
func TestUnencryptedDataAfterSSLRequest(t *testing.T) {
	ts := startServer(t, Config{TLS: testTLSConfig(t)})
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	b := encodeMessages(t, &pgproto3.SSLRequest{}, &pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: map[string]string{"user": "u"}})
	if _, err := nc.Write(b); err != nil {
		t.Fatal(err)
	}
	_ = nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	fe := pgproto3.NewFrontend(nc, nc)
	msg, err := fe.Receive()
	er, ok := msg.(*pgproto3.ErrorResponse)
	if err != nil || !ok || er.Code != "08P01" || er.Message != "received unencrypted data after SSL request" {
		t.Fatalf("got %#v, %v", msg, err)
	}
}
