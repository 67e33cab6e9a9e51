package harness

import (
	"io"
	"net"
	"sync"
)

// RoundRobin is a TCP load balancer in front of several proxies: each new
// connection goes to the next one, as a load balancer spreads them, so a
// client's CancelRequest (a new connection) lands on another proxy than
// its session.
type RoundRobin struct {
	ln       net.Listener
	mu       sync.Mutex
	backends []string
	next     int
}

// NewRoundRobin listens on a loopback port and forwards to backends.
func NewRoundRobin(backends ...string) (*RoundRobin, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	lb := &RoundRobin{ln: ln, backends: backends}
	go lb.serve()
	return lb, nil
}

func (lb *RoundRobin) serve() {
	for {
		c, err := lb.ln.Accept()
		if err != nil {
			return
		}
		lb.mu.Lock()
		to := lb.backends[lb.next%len(lb.backends)]
		lb.next++
		lb.mu.Unlock()
		go func() {
			defer c.Close()
			b, err := net.Dial("tcp", to)
			if err != nil {
				return
			}
			defer b.Close()
			done := make(chan struct{}, 2)
			go func() { io.Copy(b, c); done <- struct{}{} }()
			go func() { io.Copy(c, b); done <- struct{}{} }()
			<-done
		}()
	}
}

// SetNext makes the next connection go to backend i.
func (lb *RoundRobin) SetNext(i int) {
	lb.mu.Lock()
	lb.next = i
	lb.mu.Unlock()
}

// HostPort is the balancer's address.
func (lb *RoundRobin) HostPort() (host, port string) {
	host, port, _ = net.SplitHostPort(lb.ln.Addr().String())
	return host, port
}

// Close stops accepting connections.
func (lb *RoundRobin) Close() error { return lb.ln.Close() }
