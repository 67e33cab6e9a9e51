package main

import (
	"bufio"
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"time"
)

// tlsSniffer is the metrics listener when the console is served over TLS:
// each connection's first byte says whether it speaks TLS (a handshake
// record starts with 0x16) or plain HTTP, so Prometheus keeps scraping
// /metrics in plain HTTP on the same port while browsers reach /console
// over https. A TLS connection is handed on as a *tls.Conn, so that
// net/http sees it as TLS (Request.TLS is set).
type tlsSniffer struct {
	net.Listener
	config *tls.Config
	conns  chan net.Conn
	done   chan struct{}
	once   sync.Once
	mu     sync.Mutex
	err    error // why the listener stopped, if it failed on its own
}

// sniffTimeout is how long a new connection has to send its first byte.
const sniffTimeout = 10 * time.Second

func newTLSSniffer(ln net.Listener, config *tls.Config) *tlsSniffer {
	s := &tlsSniffer{Listener: ln, config: config, conns: make(chan net.Conn), done: make(chan struct{})}
	go s.acceptLoop()
	return s
}

func (s *tlsSniffer) acceptLoop() {
	for {
		c, err := s.Listener.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			s.mu.Lock()
			s.err = err
			s.mu.Unlock()
			s.Close()
			return
		}
		// Each connection is sniffed on its own goroutine, so a client
		// that sends nothing holds up no other.
		go s.sniff(c)
	}
}

func (s *tlsSniffer) sniff(c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(sniffTimeout))
	br := bufio.NewReaderSize(c, 1)
	first, err := br.Peek(1)
	_ = c.SetReadDeadline(time.Time{})
	if err != nil {
		c.Close()
		return
	}
	var out net.Conn = &peekedConn{Conn: c, r: br}
	if first[0] == 0x16 {
		out = tls.Server(out, s.config)
	}
	select {
	case s.conns <- out:
	case <-s.done:
		c.Close()
	}
}

// Accept returns the next connection, TLS or plain.
func (s *tlsSniffer) Accept() (net.Conn, error) {
	select {
	case c := <-s.conns:
		return c, nil
	case <-s.done:
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.err != nil {
			return nil, s.err
		}
		return nil, net.ErrClosed
	}
}

// Close stops accepting.
func (s *tlsSniffer) Close() error {
	var err error
	s.once.Do(func() {
		close(s.done)
		err = s.Listener.Close()
	})
	return err
}

// peekedConn reads through the reader that peeked its first byte.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }
