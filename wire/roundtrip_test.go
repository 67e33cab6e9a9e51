package wire

import (
	"context"
	"net"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
)

// countingListener counts the Read and Write calls on the connections it
// accepts: each is one system call on the socket (a would-block retry
// inside the runtime's poller aside).
type countingListener struct {
	net.Listener
	reads, writes atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: nc, l: l}, nil
}

type countingConn struct {
	net.Conn
	l *countingListener
}

func (c *countingConn) Read(b []byte) (int, error) {
	c.l.reads.Add(1)
	return c.Conn.Read(b)
}

func (c *countingConn) Write(b []byte) (int, error) {
	c.l.writes.Add(1)
	return c.Conn.Write(b)
}

// SyscallConn keeps the socket visible to the client-connection check.
func (c *countingConn) SyscallConn() (syscall.RawConn, error) {
	return c.Conn.(syscall.Conn).SyscallConn()
}

// TestOneReadOneWritePerRoundTrip: an extended-protocol round trip (pgx
// sends Bind, Describe, Execute and Sync, or Parse too, in one write) costs
// the server one read and one write on the socket: the reader is buffered
// so the batch is one read, and replies are queued and flushed once, at
// Sync, never per message.
func TestOneReadOneWritePerRoundTrip(t *testing.T) {
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe, pgx.QueryExecModeExec} {
		t.Run(mode.String(), func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			cl := &countingListener{Listener: ln}
			srv := NewServer(Config{}, newFakeEngine())
			go srv.Serve(cl)
			t.Cleanup(func() { srv.Shutdown(context.Background()) })
			conn := pgxConnect(t, ln.Addr().String(), "alice", "", mode)
			ctx := context.Background()
			var got int64
			// The first call prepares and describes; the counts start after it.
			if err := conn.QueryRow(ctx, "ECHO int8 text", int64(1), "x").Scan(&got, new(string)); err != nil {
				t.Fatal(err)
			}
			r0, w0 := cl.reads.Load(), cl.writes.Load()
			const rounds = 200
			for i := int64(0); i < rounds; i++ {
				var s string
				if err := conn.QueryRow(ctx, "ECHO int8 text", i, "x").Scan(&got, &s); err != nil {
					t.Fatal(err)
				}
				if got != i {
					t.Fatalf("got %d, want %d", got, i)
				}
			}
			reads, writes := cl.reads.Load()-r0, cl.writes.Load()-w0
			if writes != rounds {
				t.Errorf("%d writes for %d round trips, want one each", writes, rounds)
			}
			// A batch split by the network may take a second read now and
			// then; a reader that is not buffered takes several every time.
			if reads > rounds+rounds/20 {
				t.Errorf("%d reads for %d round trips, want one each", reads, rounds)
			}
			t.Logf("%d round trips: %d reads, %d writes", rounds, reads, writes)
		})
	}
}
