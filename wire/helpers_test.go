package wire

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/xdg-go/scram"
)

// panicWatcher is a slog handler that remembers recovered panics and
// internal errors, so tests can assert which were logged.
type panicWatcher struct {
	mu      sync.Mutex
	records []string
	attrs   []string // every attribute of every record, as key=value
}

func (w *panicWatcher) Enabled(context.Context, slog.Level) bool { return true }
func (w *panicWatcher) WithAttrs([]slog.Attr) slog.Handler       { return w }
func (w *panicWatcher) WithGroup(string) slog.Handler            { return w }
func (w *panicWatcher) Handle(_ context.Context, r slog.Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.records = append(w.records, r.Message)
	r.Attrs(func(a slog.Attr) bool {
		w.attrs = append(w.attrs, a.String())
		return true
	})
	return nil
}

// logged returns every attribute logged so far, one a line.
func (w *panicWatcher) logged() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.attrs, "\n")
}

func (w *panicWatcher) count(msg string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, r := range w.records {
		if r == msg {
			n++
		}
	}
	return n
}

// testServer runs a Server on a loopback port for one test.
type testServer struct {
	srv  *Server
	eng  *fakeEngine
	addr string
	logs *panicWatcher
	done chan error
}

func startServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{eng: newFakeEngine(), addr: ln.Addr().String(), logs: &panicWatcher{}, done: make(chan error, 1)}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(ts.logs)
	}
	ts.srv = NewServer(cfg, ts.eng)
	go func() { ts.done <- ts.srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := ts.srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-ts.done; err != ErrServerClosed {
			t.Errorf("Serve returned %v, want ErrServerClosed", err)
		}
	})
	return ts
}

// rawClient speaks the protocol with pgproto3.Frontend so tests can assert
// exact message sequences.
type rawClient struct {
	t      testing.TB
	nc     net.Conn
	fe     *pgproto3.Frontend
	pid    uint32
	secret []byte
	params map[string]string
}

func dialRaw(t testing.TB, addr string) *rawClient {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	return &rawClient{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc), params: map[string]string{}}
}

// connectRaw dials and completes a trust startup.
func connectRaw(t testing.TB, addr string) *rawClient {
	t.Helper()
	c := dialRaw(t, addr)
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "alice", "database": "db", "application_name": "rawtest"}})
	c.until("ReadyForQuery")
	return c
}

func (c *rawClient) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		c.fe.Send(m)
	}
	if err := c.fe.Flush(); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// recv reads one message and renders it compactly.
func (c *rawClient) recv() (string, pgproto3.BackendMessage) {
	c.t.Helper()
	msg, err := c.fe.Receive()
	if err != nil {
		return "EOF", nil
	}
	switch m := msg.(type) {
	case *pgproto3.BackendKeyData:
		c.pid, c.secret = m.ProcessID, append([]byte(nil), m.SecretKey...)
	case *pgproto3.ParameterStatus:
		c.params[m.Name] = m.Value
	}
	return describeMsg(msg), msg
}

// until reads messages up to and including one whose description starts
// with prefix, and returns their descriptions.
func (c *rawClient) until(prefix string) []string {
	c.t.Helper()
	var got []string
	for {
		s, _ := c.recv()
		got = append(got, s)
		if strings.HasPrefix(s, prefix) || s == "EOF" {
			if !strings.HasPrefix(s, prefix) {
				c.t.Fatalf("connection ended before %s; got %v", prefix, got)
			}
			return got
		}
	}
}

// expectEOF asserts the server closes the connection next.
func (c *rawClient) expectEOF() {
	c.t.Helper()
	if s, _ := c.recv(); s != "EOF" {
		c.t.Fatalf("got %s, want the connection closed", s)
	}
}

func describeMsg(msg pgproto3.BackendMessage) string {
	switch m := msg.(type) {
	case *pgproto3.ErrorResponse:
		if m.Position != 0 {
			return fmt.Sprintf("Error(%s %s %s @%d)", m.Severity, m.Code, m.Message, m.Position)
		}
		return fmt.Sprintf("Error(%s %s %s)", m.Severity, m.Code, m.Message)
	case *pgproto3.NoticeResponse:
		return fmt.Sprintf("Notice(%s %s)", m.Severity, m.Message)
	case *pgproto3.ReadyForQuery:
		return fmt.Sprintf("ReadyForQuery(%c)", m.TxStatus)
	case *pgproto3.CommandComplete:
		return fmt.Sprintf("CommandComplete(%s)", m.CommandTag)
	case *pgproto3.DataRow:
		var parts []string
		for _, v := range m.Values {
			if v == nil {
				parts = append(parts, "NULL")
			} else if bytes.ContainsFunc(v, func(r rune) bool { return r < ' ' }) {
				parts = append(parts, fmt.Sprintf("%x", v))
			} else {
				parts = append(parts, string(v))
			}
		}
		return "DataRow(" + strings.Join(parts, ",") + ")"
	case *pgproto3.RowDescription:
		var parts []string
		for _, f := range m.Fields {
			parts = append(parts, fmt.Sprintf("%s:%d:%d", f.Name, f.DataTypeOID, f.Format))
		}
		return "RowDescription(" + strings.Join(parts, ",") + ")"
	case *pgproto3.ParameterDescription:
		return fmt.Sprintf("ParameterDescription%v", m.ParameterOIDs)
	case *pgproto3.ParameterStatus:
		return fmt.Sprintf("ParameterStatus(%s=%s)", m.Name, m.Value)
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", msg), "*pgproto3.")
}

func listen(t testing.TB) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// scramClient is the client side of a SCRAM-SHA-256 exchange for raw
// protocol tests.
type scramClient struct {
	t    testing.TB
	conv *scram.ClientConversation
}

func newSCRAMClient(t testing.TB, password string) *scramClient {
	t.Helper()
	client, err := scram.SHA256.NewClient("", password, "")
	if err != nil {
		t.Fatal(err)
	}
	return &scramClient{t: t, conv: client.NewConversation()}
}

// first picks SCRAM-SHA-256 (no channel binding) among the server's
// mechanisms and returns the client-first message.
func (s *scramClient) first(mechanisms []string) *pgproto3.SASLInitialResponse {
	s.t.Helper()
	if !slices.Contains(mechanisms, "SCRAM-SHA-256") {
		s.t.Fatalf("server offers %v", mechanisms)
	}
	msg, err := s.conv.Step("")
	if err != nil {
		s.t.Fatal(err)
	}
	return &pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte(msg)}
}

func (s *scramClient) final(serverFirst []byte) *pgproto3.SASLResponse {
	s.t.Helper()
	msg, err := s.conv.Step(string(serverFirst))
	if err != nil {
		s.t.Fatal(err)
	}
	return &pgproto3.SASLResponse{Data: []byte(msg)}
}

// verify checks the server's signature: the server knew the verifier.
func (s *scramClient) verify(serverFinal []byte) {
	s.t.Helper()
	if _, err := s.conv.Step(string(serverFinal)); err != nil {
		s.t.Fatalf("server signature: %v", err)
	}
}
