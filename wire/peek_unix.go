//go:build unix

package wire

import (
	"errors"
	"net"
	"syscall"
)

// canPeek reports whether clientHungUp can look at nc's socket.
func canPeek(nc net.Conn) bool {
	_, ok := nc.(syscall.Conn)
	return ok
}

// clientHungUp reports whether the peer of nc has closed the connection or
// reset it, by peeking at the socket without blocking: bytes a client has
// pipelined stay in the socket for the next read, and a client that is
// merely quiet is still there.
func clientHungUp(nc net.Conn) bool {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return true // closed
	}
	gone := false
	err = rc.Read(func(fd uintptr) bool {
		var b [1]byte
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case err == nil:
			gone = n == 0 // an orderly shutdown reads as end of file
		case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EWOULDBLOCK), errors.Is(err, syscall.EINTR):
		default:
			gone = true // reset, or the socket is broken
		}
		return true // never wait for readability
	})
	return gone || err != nil
}
